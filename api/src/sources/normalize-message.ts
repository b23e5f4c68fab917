import type { RawGraphMessage } from './raw-schemas.js';
import type { ExternalLink, MessageRecord } from './types.js';
import { FeedFormatError } from './errors.js';
import { messageTiming } from './rollout-timing.js';
import { asHtml, cleanLine, cleanOptionalLine, cleanRich, parseUtc, uniqueList } from './text.js';

const LINK_DETAILS = ['ExternalLink', 'BlogLink', 'HelpLink'] as const;
const MAX_ROADMAP_ID = 99_999_999;

/** "492615,478649" → [492615, 478649]; junk entries are dropped rather than failing the message. */
export function parseRoadmapIdList(value: string | null | undefined): number[] {
  if (!value) return [];
  return value
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter((s) => /^\d+$/.test(s))
    .map(Number)
    .filter((n) => n > 0 && n <= MAX_ROADMAP_ID);
}

const ROADMAP_URL = /https?:\/\/[^\s"'<>]*microsoft-365\/roadmap[^\s"'<>]*/gi;
const ID_PARAM = /(?:searchterms|[?&]id|filters)=([\d,\s]+)/gi;

/**
 * Roadmap ids named in the body's links. Seen forms (docs/ingestion.md, "Quirks handled"): `roadmap?filters=&amp;searchterms=<id>`,
 * `roadmap?id=<id>`, `roadmap?searchterms=<id>`, with `#Roadmap` suffixes and a percent-encoded `rtc=1%26filters%3D`.
 * Some messages link a roadmap item only in the body, without a RoadmapIds detail.
 */
export function roadmapIdsFromBody(html: string): number[] {
  const ids: number[] = [];
  for (const [url] of html.matchAll(ROADMAP_URL)) {
    let decoded = url.replace(/&amp;/gi, '&');
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      // A stray % in a link is not worth failing over; the undecoded text is still searched.
    }
    for (const m of decoded.matchAll(ID_PARAM)) ids.push(...parseRoadmapIdList(m[1]));
  }
  return ids;
}

/** Drops every `LastUpdateTime` key, at any depth: Graph restamps them on every fetch. */
function stripLastUpdateTime(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripLastUpdateTime);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'LastUpdateTime') out[k] = stripLastUpdateTime(v);
    return out;
  }
  return value;
}

export function normalizeFeatureStatus(json: string | null | undefined): unknown {
  if (!json || json.trim() === '') return null;
  try {
    return stripLastUpdateTime(JSON.parse(json));
  } catch {
    // Kept as text (minus the timestamps) so a malformed detail never blocks the message itself.
    return json.replace(/"LastUpdateTime"\s*:\s*"[^"]*"\s*,?/g, '');
  }
}

const hasTag = (tags: string[], name: string) => tags.some((t) => t.toLowerCase() === name.toLowerCase());

/** One raw Graph serviceUpdateMessage → our record. */
export function normalizeMessage(raw: RawGraphMessage): MessageRecord {
  const details = new Map<string, string>();
  for (const d of raw.details ?? []) if (d.value != null) details.set(d.name, d.value);

  const bodyContent = asHtml(cleanRich(raw.body?.content));
  const tags = uniqueList((raw.tags ?? []).map(cleanLine));
  const detailRoadmapIds = [...new Set(parseRoadmapIdList(details.get('RoadmapIds')))].sort((a, b) => a - b);
  const roadmapIds = [...new Set([...detailRoadmapIds, ...roadmapIdsFromBody(bodyContent)])].sort((a, b) => a - b);
  const externalLinks: ExternalLink[] = LINK_DETAILS.flatMap((name) => {
    const url = cleanOptionalLine(details.get(name));
    return url ? [{ name, url }] : [];
  });
  const summary = cleanRich(details.get('Summary'));
  const publishedDate = parseUtc(raw.startDateTime);

  return {
    messageId: cleanLine(raw.id),
    title: cleanLine(raw.title),
    summary: summary === '' ? null : summary,
    bodyContent,
    category: cleanOptionalLine(raw.category),
    severity: cleanOptionalLine(raw.severity),
    tags,
    services: uniqueList((raw.services ?? []).map(cleanLine)),
    isMajorChange: raw.isMajorChange === true,
    userImpact: hasTag(tags, 'User impact'),
    adminImpact: hasTag(tags, 'Admin impact'),
    hasAttachments: raw.hasAttachments === true,
    publishedDate,
    lastUpdatedDate: parseUtc(raw.lastModifiedDateTime),
    endDate: parseUtc(raw.endDateTime),
    actionRequiredByDate: parseUtc(raw.actionRequiredByDateTime),
    platforms: uniqueList((details.get('Platforms') ?? '').split(',').map(cleanLine)),
    roadmapIds,
    detailRoadmapIds,
    externalLinks,
    featureStatus: normalizeFeatureStatus(details.get('FeatureStatusJson')),
    timing: messageTiming(bodyContent, publishedDate),
    // Listed by the Graph client for posts that have attachments (graph-messages.ts); until then, not known.
    attachments: [],
    attachmentsUnknown: raw.hasAttachments === true,
  };
}

/** A whole Message Center fetch → records; a message listed twice means a broken fetch. */
export function normalizeMessages(raw: RawGraphMessage[], originals?: unknown[]): MessageRecord[] {
  const seen = new Set<string>();
  return raw.map((m, i) => {
    const record = normalizeMessage(m);
    record.raw = originals?.[i] ?? m;
    if (record.messageId === '') throw new FeedFormatError('a Message Center message has an empty id');
    if (seen.has(record.messageId)) throw new FeedFormatError(`Message Center lists ${record.messageId} twice`);
    seen.add(record.messageId);
    return record;
  });
}
