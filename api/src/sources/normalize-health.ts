import { FeedFormatError } from './errors.js';
import type { RawHealthIssue } from './raw-schemas.js';
import { asHtml, cleanLine, cleanOptionalLine, cleanRich, parseUtc } from './text.js';
import type { HealthRecord } from './types.js';

/**
 * Graph serviceHealthIssue → our record. Posts are ordered oldest first by their time (Graph lists them in posting
 * order, but a recorded file may not), posts with the same time and text are one post, and a post whose time cannot be
 * read is dropped rather than failing the issue. Classification and status keep Graph's spelling (lower camel case).
 */
export function normalizeHealthIssue(raw: RawHealthIssue, original?: unknown): HealthRecord {
  const posts: HealthRecord['posts'] = [];
  const seen = new Set<string>();
  for (const post of raw.posts ?? []) {
    const at = parseUtc(post.createdDateTime);
    if (!at) continue;
    const html = asHtml(cleanRich(post.description?.content ?? ''));
    const key = `${at.toISOString()}\u0000${html}`;
    if (seen.has(key)) continue;
    seen.add(key);
    posts.push({ postedAt: at.toISOString(), postType: cleanOptionalLine(post.postType), html });
  }
  posts.sort((a, b) => a.postedAt.localeCompare(b.postedAt));
  const service = cleanOptionalLine(raw.service);
  const id = cleanLine(raw.id);
  if (!id) throw new FeedFormatError('Service Health issue without an id');
  return {
    issueId: id,
    title: cleanLine(raw.title),
    summary: cleanOptionalLine(raw.impactDescription),
    classification: cleanOptionalLine(raw.classification),
    origin: cleanOptionalLine(raw.origin),
    status: cleanOptionalLine(raw.status),
    services: service ? [service] : [],
    feature: cleanOptionalLine(raw.feature),
    featureGroup: cleanOptionalLine(raw.featureGroup),
    isResolved: raw.isResolved === true,
    startDate: parseUtc(raw.startDateTime),
    endDate: parseUtc(raw.endDateTime),
    lastModifiedDate: parseUtc(raw.lastModifiedDateTime),
    posts,
    raw: original ?? raw,
  };
}

/** Issues of one snapshot; an id listed twice (two pages overlapping) keeps the newer copy. */
export function normalizeHealthIssues(list: RawHealthIssue[], originals?: unknown[]): HealthRecord[] {
  const byId = new Map<string, HealthRecord>();
  list.forEach((raw, i) => {
    const record = normalizeHealthIssue(raw, originals?.[i]);
    const kept = byId.get(record.issueId);
    if (!kept || (record.lastModifiedDate?.getTime() ?? 0) >= (kept.lastModifiedDate?.getTime() ?? 0)) byId.set(record.issueId, record);
  });
  return [...byId.values()];
}
