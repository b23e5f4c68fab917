import type { HealthRecord, MessageRecord, RoadmapRecord } from '../../sources/types.js';

/**
 * The fields whose changes are recorded in change history, by the unified item's names. Fields that change on every
 * fetch and mean nothing are absent on purpose: roadmap `modified` (bumped with any other change, once alone) and
 * Graph `lastModifiedDateTime` (bumped with any real change). FeatureStatusJson is tracked only after its
 * `LastUpdateTime` stamps were stripped in normalisation, so restamping alone never shows up.
 */
export interface TrackedField<R> {
  name: string;
  /** The value as history stores it: JSON (dates as ISO strings). */
  value(record: R): unknown;
  /** Set-like lists compare without order: a reordered tag list is not a change. */
  unordered?: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const ROADMAP_FIELDS: TrackedField<RoadmapRecord>[] = [
  { name: 'title', value: (r) => r.title },
  { name: 'description', value: (r) => r.description },
  { name: 'status', value: (r) => r.status },
  { name: 'releaseDate', value: (r) => r.releaseDate },
  { name: 'previewDate', value: (r) => r.previewDate },
  { name: 'products', value: (r) => r.products, unordered: true },
  { name: 'cloudInstances', value: (r) => r.cloudInstances, unordered: true },
  { name: 'platforms', value: (r) => r.platforms, unordered: true },
  { name: 'releasePhase', value: (r) => r.releasePhase, unordered: true },
  { name: 'tags', value: (r) => r.tags, unordered: true },
  { name: 'moreInfoLink', value: (r) => r.moreInfoLink },
];

export const MESSAGE_FIELDS: TrackedField<MessageRecord>[] = [
  { name: 'title', value: (m) => m.title },
  { name: 'summary', value: (m) => m.summary },
  { name: 'bodyContent', value: (m) => m.bodyContent },
  { name: 'category', value: (m) => m.category },
  { name: 'severity', value: (m) => m.severity },
  { name: 'tags', value: (m) => m.tags, unordered: true },
  { name: 'services', value: (m) => m.services, unordered: true },
  { name: 'isMajorChange', value: (m) => m.isMajorChange },
  { name: 'publishedDate', value: (m) => iso(m.publishedDate) },
  { name: 'endDate', value: (m) => iso(m.endDate) },
  { name: 'actionRequiredByDate', value: (m) => iso(m.actionRequiredByDate) },
  { name: 'platforms', value: (m) => m.platforms, unordered: true },
  { name: 'roadmapIds', value: (m) => m.roadmapIds, unordered: true },
  { name: 'externalLinks', value: (m) => m.externalLinks },
  { name: 'featureStatus', value: (m) => m.featureStatus },
  { name: 'hasAttachments', value: (m) => m.hasAttachments },
  // Derived from the body: a revision that moves the rollout is recorded as a timing change (a date slip).
  { name: 'timing', value: (m) => m.timing },
  // What files a post carries (not when Graph last touched them).
  { name: 'attachments', value: (m) => m.attachments.map(({ id, name, contentType, size }) => ({ id, name, contentType, size })), unordered: true },
];

/**
 * A Service Health issue: what Microsoft says about it and where it stands. Its updates are compared by their number
 * and the newest one's text (an update is only ever added), so the history shows each new update as it arrived.
 */
export const HEALTH_FIELDS: TrackedField<HealthRecord>[] = [
  { name: 'title', value: (h) => h.title },
  { name: 'impactDescription', value: (h) => h.summary },
  { name: 'healthStatus', value: (h) => h.status },
  { name: 'classification', value: (h) => h.classification },
  { name: 'services', value: (h) => h.services, unordered: true },
  { name: 'feature', value: (h) => h.feature },
  { name: 'featureGroup', value: (h) => h.featureGroup },
  { name: 'origin', value: (h) => h.origin },
  { name: 'isResolved', value: (h) => h.isResolved },
  { name: 'startDate', value: (h) => iso(h.startDate) },
  { name: 'endDate', value: (h) => iso(h.endDate) },
  { name: 'postCount', value: (h) => h.posts.length },
  { name: 'latestPost', value: (h) => h.posts.at(-1)?.html ?? null },
];

/** What a 'new' entry shows: enough to read the item's first state without copying every body into history. */
export const ROADMAP_NEW_FIELDS = ['title', 'status', 'releaseDate', 'previewDate', 'products'];
export const MESSAGE_NEW_FIELDS = ['title', 'services', 'tags', 'publishedDate', 'endDate', 'roadmapIds'];
export const HEALTH_NEW_FIELDS = ['title', 'healthStatus', 'classification', 'services', 'feature', 'startDate'];

/** Stable JSON: object keys sorted, so key order from the feed (A vs B serialisation) never looks like a change. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** A history value in comparable form: key-sorted JSON, set-like lists without order. */
export function comparableValue(value: unknown, unordered = false): string {
  if (unordered && Array.isArray(value)) return stableJson([...value].map((x) => stableJson(x)).sort());
  return stableJson(value ?? null);
}

function comparable<R>(field: TrackedField<R>, record: R): string {
  return comparableValue(field.value(record), field.unordered);
}

export interface FieldDiff {
  changedFields: string[];
  previousValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
}

/** Field-level diff of two versions of one item; empty changedFields means nothing meaningful changed. */
export function diffRecords<R>(fields: TrackedField<R>[], previous: R, next: R): FieldDiff {
  const diff: FieldDiff = { changedFields: [], previousValues: {}, newValues: {} };
  for (const field of fields) {
    if (comparable(field, previous) === comparable(field, next)) continue;
    diff.changedFields.push(field.name);
    diff.previousValues[field.name] = field.value(previous) ?? null;
    diff.newValues[field.name] = field.value(next) ?? null;
  }
  return diff;
}

export function pickValues<R>(fields: TrackedField<R>[], names: string[], record: R): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (names.includes(f.name)) out[f.name] = f.value(record) ?? null;
  return out;
}
