/** Our normalised records: what a sync compares and stores. Field names follow the spec and the change history. */

export interface RoadmapRecord {
  itemId: number;
  title: string;
  /** HTML kept as the feed sends it (sanitised only when shown). */
  description: string;
  moreInfoLink: string | null;
  /** GA target as the feed spells it, e.g. "March CY2026". */
  releaseDate: string | null;
  /** `""` in the feed means none. */
  previewDate: string | null;
  status: string | null;
  products: string[];
  cloudInstances: string[];
  platforms: string[];
  releasePhase: string[];
  tags: string[];
  createdDate: Date;
  /** Changes whenever anything else changes, so it is stored but never recorded as a change on its own. */
  modifiedDate: Date;
  /** The feed's own object, kept for audits and re-parsing; never compared. */
  raw?: unknown;
  /**
   * Set on records read from the RSS fallback, which carries less than the JSON feed: `moreInfoLink` only when the
   * item's description ends with a "More info:" line, and no characters XML cannot hold (the JSON's \u000b soft
   * breaks). The sync keeps the stored values then (reconcileRssRecords) rather than blanking or churning them.
   */
  rss?: { hasMoreInfoLink: boolean };
}

export interface ExternalLink {
  name: string;
  url: string;
}

export interface MessageRecord {
  messageId: string;
  /** "(Updated) " prefix kept: it is how Microsoft shows the title. */
  title: string;
  summary: string | null;
  bodyContent: string;
  category: string | null;
  severity: string | null;
  tags: string[];
  services: string[];
  isMajorChange: boolean;
  userImpact: boolean;
  adminImpact: boolean;
  hasAttachments: boolean;
  publishedDate: Date | null;
  lastUpdatedDate: Date | null;
  endDate: Date | null;
  actionRequiredByDate: Date | null;
  platforms: string[];
  /** Sorted union of `details.RoadmapIds` and the ids in the body's roadmap links. */
  roadmapIds: number[];
  /** The subset named in `details.RoadmapIds` (the rest came from body links); kept as the link's origin. */
  detailRoadmapIds: number[];
  externalLinks: ExternalLink[];
  /** FeatureStatusJson without its `LastUpdateTime` stamps, which change on every fetch and mean nothing. */
  featureStatus: unknown;
  raw?: unknown;
}

export type SourceName = 'roadmap' | 'message_center';
