import type { MessageAttachment, TimingWindow } from '@radar/contracts';

/** Our normalised records: what a sync compares and stores. Field names are the unified item's and the change history's. */

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
   * Set on records read from a format that carries less than the v1 JSON feed (the RSS fallback, a v2 answer without
   * some keys). The sync completes them from the stored rows before comparing (lossy-reconcile.ts), so a change of
   * format is never a change of the item.
   */
  lossy?: LossyInfo;
}

/** Record fields a format may not carry. */
export type LossyRoadmapField =
  'description' | 'status' | 'products' | 'platforms' | 'cloudInstances' | 'releasePhase' | 'moreInfoLink' | 'releaseDate' | 'previewDate';

export interface LossyInfo {
  /** Fields the answer did not carry: the stored value is kept (RSS: `moreInfoLink` without a "More info:" line). */
  absent: LossyRoadmapField[];
  /**
   * The format may have lost whitespace (RSS: XML cannot hold the JSON's \u000b soft breaks): a title or description
   * that differs from the stored one only in whitespace keeps the stored text.
   */
  spacing: boolean;
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
  /** Rollout windows read from the body's schedule section (derived from the body: see rollout-timing.ts). */
  timing: TimingWindow[];
  /** What `/messages/{id}/attachments` lists for a post with `hasAttachments` ([] otherwise). */
  attachments: MessageAttachment[];
  /** The list could not be read this time: the sync keeps the stored one (never a change of the post). */
  attachmentsUnknown?: boolean;
  raw?: unknown;
}

/** A Service Health issue (incident or advisory) as one tenant's Graph lists it. */
export interface HealthRecord {
  issueId: string;
  title: string;
  /** Graph `impactDescription`. */
  summary: string | null;
  /** incident | advisory (as Graph spells it). */
  classification: string | null;
  origin: string | null;
  /** Graph `status` (serviceRestored, investigating, …). */
  status: string | null;
  /** The impacted service as a one-item list (the list's product), [] when Graph names none. */
  services: string[];
  feature: string | null;
  featureGroup: string | null;
  isResolved: boolean;
  startDate: Date | null;
  endDate: Date | null;
  lastModifiedDate: Date | null;
  /** Every update, oldest first; HTML (a text post is escaped into a paragraph). */
  posts: { postedAt: string; postType: string | null; html: string }[];
  raw?: unknown;
}

export type SourceName = 'roadmap' | 'message_center' | 'service_health';
