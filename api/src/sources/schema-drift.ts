/**
 * Schema drift: what a feed's items carry that we do not read, and what we read that they stopped carrying. Microsoft
 * changes its feeds without notice (a renamed key, a new detail); a required field that goes missing is refused by
 * the feed's schema, but an optional one would quietly turn into empty values and a new one would go unread. Every
 * sync counts both per source and Sync History flags the run with the field names, so an admin sees it the day it
 * happens.
 */

export interface DriftField {
  /** A top-level item key, or `details.<Name>` for a Message Center detail. */
  field: string;
  /** Items it was seen on (unexpected) or missing from (missing). */
  items: number;
}

export interface SchemaDrift {
  unexpected: DriftField[];
  missing: DriftField[];
}

export const NO_DRIFT: SchemaDrift = { unexpected: [], missing: [] };

/** The v1 JSON feed's 13 item keys: every recorded item carries all of them. */
export const V1_ITEM_FIELDS = [
  'id',
  'title',
  'description',
  'moreInfoLink',
  'publicDisclosureAvailabilityDate',
  'publicPreviewDate',
  'created',
  'publicRoadmapStatus',
  'status',
  'modified',
  'locale',
  'tags',
  'tagsContainer',
] as const;

/** Graph's serviceUpdateMessage keys as the messages endpoint sends them (attachmentsArchive is a stream it omits). */
export const GRAPH_MESSAGE_FIELDS = [
  'startDateTime',
  'endDateTime',
  'lastModifiedDateTime',
  'title',
  'id',
  'category',
  'severity',
  'tags',
  'isMajorChange',
  'actionRequiredByDateTime',
  'services',
  'hasAttachments',
  'viewPoint',
  'details',
  'body',
] as const;
/** Keys Graph may add to a message that say nothing new (the attachments stream when expanded). */
const GRAPH_OPTIONAL_FIELDS = ['attachmentsArchive', 'attachments'];

/** The `details` names we read or know to mean nothing; any other name is drift. */
export const KNOWN_MESSAGE_DETAILS = ['Summary', 'RoadmapIds', 'Platforms', 'FeatureStatusJson', 'ExternalLink', 'BlogLink', 'HelpLink'];

/** The RSS feed's <item> children (the mapping reads all but `link`, which is the roadmap page of the id). */
export const RSS_ITEM_FIELDS = ['guid', 'link', 'category', 'title', 'description', 'pubDate', 'a10:updated'] as const;

/** OData annotations (`@odata.etag`, …) and XML attributes of the parser are metadata, not fields. */
const isMetadata = (key: string) => key.startsWith('@') || key.startsWith(':@');

class Tally {
  private readonly counts = new Map<string, number>();
  add(field: string): void {
    this.counts.set(field, (this.counts.get(field) ?? 0) + 1);
  }
  list(): DriftField[] {
    return [...this.counts].map(([field, items]) => ({ field, items })).sort((a, b) => a.field.localeCompare(b.field));
  }
}

/**
 * Counts, over one snapshot's raw items, the keys not in `expected` (nor `optional`) and the expected keys an item
 * lacks. `extra` adds per-item findings of a format (Message Center detail names).
 */
export function driftOfItems(
  items: readonly unknown[],
  expected: readonly string[],
  { optional = [], extra }: { optional?: readonly string[]; extra?: (item: Record<string, unknown>, unexpected: (field: string) => void) => void } = {},
): SchemaDrift {
  const known = new Set([...expected, ...optional]);
  const unexpected = new Tally();
  const missing = new Tally();
  for (const item of items) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!known.has(key) && !isMetadata(key)) unexpected.add(key);
    for (const key of expected) if (!Object.prototype.hasOwnProperty.call(record, key)) missing.add(key);
    extra?.(record, (field) => unexpected.add(field));
  }
  return { unexpected: unexpected.list(), missing: missing.list() };
}

/** Drift of a Message Center snapshot: top-level keys and detail names. */
export function driftOfMessages(items: readonly unknown[]): SchemaDrift {
  const knownDetails = new Set(KNOWN_MESSAGE_DETAILS);
  return driftOfItems(items, GRAPH_MESSAGE_FIELDS, {
    optional: GRAPH_OPTIONAL_FIELDS,
    extra: (item, unexpected) => {
      if (!Array.isArray(item.details)) return;
      const names = new Set<string>();
      for (const d of item.details) {
        const name = d && typeof d === 'object' ? (d as { name?: unknown }).name : undefined;
        if (typeof name === 'string' && !knownDetails.has(name)) names.add(name);
      }
      for (const name of names) unexpected(`details.${name}`);
    },
  });
}

export const hasDrift = (drift: SchemaDrift | null | undefined): drift is SchemaDrift => Boolean(drift && (drift.unexpected.length || drift.missing.length));

/** One line for logs and notes: "unexpected: a (3), b (1); missing: c (1,900)". */
export function describeDrift(drift: SchemaDrift): string {
  const list = (fields: DriftField[]) => fields.map((f) => `${f.field} (${f.items.toLocaleString('en-US')})`).join(', ');
  return [drift.unexpected.length ? `unexpected: ${list(drift.unexpected)}` : '', drift.missing.length ? `missing: ${list(drift.missing)}` : '']
    .filter(Boolean)
    .join('; ');
}
