import { canonicalRoadmapDate } from '@radar/contracts';
import { z } from 'zod';
import { FeedFormatError, FeedHttpError } from './errors.js';
import { fetchTextWithRetry, type RequestControl, type RetryOptions, type TextResponse } from './http.js';
import { normalizeRoadmapFeed } from './normalize-roadmap.js';
import { describeIssues, roadmapId, type RawRoadmapItem } from './raw-schemas.js';
import type { LossyRoadmapField, RoadmapRecord } from './types.js';

/**
 * The roadmap's v2 API (`releasecommunications/api/v2/m365`, the AI at Work Roadmap), an OData service:
 *   { "@odata.context": …, "value": [ item… ], "@odata.nextLink"?: …, "@odata.count"?: n }
 * with flat items: id, title, description, status, created, modified, products[], platforms[], cloudInstances[],
 * releaseRings[] (v1's releasePhase), generalAvailabilityDate and previewAvailabilityDate as "YYYY-MM" (v1:
 * "February CY2026"), availabilities[] ({ ring, year, month }) and moreInfoUrls[].
 *
 * No recording of a real answer exists, so the shape is validated as strictly as the v1 feed's where identity and
 * change detection depend on it (id, title, created) and leniently elsewhere: a list may hold strings or objects
 * naming the value (`{ tagName }`, `{ name }`, `{ displayName }`). Each item becomes a v1-shaped item and goes
 * through the same normalisation as v1 and RSS, so one snapshot read through any of the three is stored the same.
 * A field the answer does not carry at all (the key is missing, not null) is marked absent on the record: the sync
 * keeps the stored value instead of blanking it (lossy-reconcile.ts).
 */

const named = z.union([
  z.string(),
  z.object({ tagName: z.string() }).transform((o) => o.tagName),
  z.object({ name: z.string() }).transform((o) => o.name),
  z.object({ displayName: z.string() }).transform((o) => o.displayName),
  z.object({ value: z.string() }).transform((o) => o.value),
]);
const nameList = z.array(named).nullish();
const urlEntry = z.union([z.string(), z.object({ url: z.string() }).transform((o) => o.url), z.object({ href: z.string() }).transform((o) => o.href)]);

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const monthNumber = z.union([
  z.number().int().min(1).max(12),
  z
    .string()
    .trim()
    .transform((m, ctx) => {
      const n = /^\d{1,2}$/.test(m) ? Number(m) : MONTHS.indexOf(m.toLowerCase()) + 1;
      if (n >= 1 && n <= 12) return n;
      ctx.addIssue({ code: 'custom', message: `not a month: "${m}"` });
      return z.NEVER;
    }),
]);

const availability = z.object({
  ring: z.string().nullish(),
  year: z
    .union([
      z.number().int(),
      z
        .string()
        .regex(/^\d{4}$/)
        .transform(Number),
    ])
    .nullish(),
  month: monthNumber.nullish(),
});

export const rawRoadmapV2Item = z.object({
  id: roadmapId,
  title: z.string(),
  description: z.string().nullish(),
  status: z.string().nullish(),
  created: z.string(),
  modified: z.string().nullish(),
  products: nameList,
  platforms: nameList,
  cloudInstances: nameList,
  releaseRings: nameList,
  generalAvailabilityDate: z.string().nullish(),
  previewAvailabilityDate: z.string().nullish(),
  availabilities: z.array(availability).nullish(),
  moreInfoUrls: z.array(urlEntry).nullish(),
});
export type RawRoadmapV2Item = z.infer<typeof rawRoadmapV2Item>;

/** The fields a v2 item is expected to carry (schema drift counts what is missing and what else arrives). */
export const V2_ITEM_FIELDS = Object.keys(rawRoadmapV2Item.shape);

/** One page of the OData answer. `value` is checked item by item afterwards, so a bad item is named. */
export const rawRoadmapV2Page = z.object({
  value: z.array(z.unknown()),
  '@odata.nextLink': z.string().nullish(),
  '@odata.count': z.coerce.number().int().min(0).nullish(),
});

/** Which record field each optional v2 key fills: a key missing from an item leaves that field as stored. */
const FIELD_OF_KEY: [key: keyof RawRoadmapV2Item, field: LossyRoadmapField][] = [
  ['description', 'description'],
  ['status', 'status'],
  ['products', 'products'],
  ['platforms', 'platforms'],
  ['cloudInstances', 'cloudInstances'],
  ['releaseRings', 'releasePhase'],
  ['moreInfoUrls', 'moreInfoLink'],
];

const isGa = (ring: string) => /general availability|^ga$/i.test(ring.trim());
const isPreview = (ring: string) => /preview/i.test(ring.trim());

/** "YYYY-MM" of the first availability whose ring matches, or null. */
function availabilityMonth(list: RawRoadmapV2Item['availabilities'], match: (ring: string) => boolean): string | null {
  const hit = (list ?? []).find((a) => a.ring && match(a.ring) && a.year && a.month);
  return hit ? `${hit.year}-${String(hit.month).padStart(2, '0')}` : null;
}

/** A v2 item as the v1 item it describes, plus the record fields its answer did not carry. */
export function v2ItemToV1(item: RawRoadmapV2Item, original: Record<string, unknown>): { raw: RawRoadmapItem; absent: LossyRoadmapField[] } {
  const has = (key: string) => Object.prototype.hasOwnProperty.call(original, key);
  const absent = FIELD_OF_KEY.filter(([key]) => !has(key)).map(([, field]) => field);
  const ga = item.generalAvailabilityDate || availabilityMonth(item.availabilities, isGa);
  const preview = item.previewAvailabilityDate || availabilityMonth(item.availabilities, isPreview);
  if (!ga && !has('generalAvailabilityDate') && !has('availabilities')) absent.push('releaseDate');
  if (!preview && !has('previewAvailabilityDate') && !has('availabilities')) absent.push('previewDate');
  const list = (values: string[] | null | undefined) => (values ?? []).map((tagName) => ({ tagName }));
  return {
    raw: {
      id: item.id,
      title: item.title,
      description: item.description ?? '',
      moreInfoLink: (item.moreInfoUrls ?? []).map((u) => u.trim()).find((u) => u !== '') ?? null,
      publicDisclosureAvailabilityDate: canonicalRoadmapDate(ga),
      // The v1 feed's own "no date" value.
      publicPreviewDate: canonicalRoadmapDate(preview) ?? '',
      created: item.created,
      modified: item.modified,
      status: item.status,
      tagsContainer: {
        products: list(item.products),
        cloudInstances: list(item.cloudInstances),
        releasePhase: list(item.releaseRings),
        platforms: list(item.platforms),
      },
    },
    absent,
  };
}

/** The `value` items of every page → records, or FeedFormatError naming the first bad item. */
export function roadmapRecordsFromV2Items(values: unknown[]): RoadmapRecord[] {
  const mapped = values.map((value, i) => {
    const parsed = rawRoadmapV2Item.safeParse(value);
    if (!parsed.success) throw new FeedFormatError(`roadmap v2 item ${i} refused: ${describeIssues(parsed.error)}`);
    return v2ItemToV1(parsed.data, value as Record<string, unknown>);
  });
  const records = normalizeRoadmapFeed(
    mapped.map((m) => m.raw),
    values,
  );
  records.forEach((record, i) => {
    const absent = mapped[i]?.absent ?? [];
    if (absent.length) record.lossy = { absent, spacing: false };
  });
  return records;
}

/** A held or recorded v2 snapshot: every page's items in one `{ value: [...] }` object, or a bare array. */
export function roadmapRecordsFromV2Payload(payload: unknown): RoadmapRecord[] {
  const values = Array.isArray(payload) ? payload : rawRoadmapV2Page.safeParse(payload).data?.value;
  if (!values) throw new FeedFormatError('roadmap v2 payload refused: no value array');
  return roadmapRecordsFromV2Items(values);
}

export interface V2Pages {
  /** Every item of every page, in order. */
  values: unknown[];
  /** The first page's answer (its validators make the next sync's request conditional). */
  first: TextResponse;
  /** Every page's body, concatenated (the unchanged-body check hashes it). */
  text: string;
}

const withQuery = (url: string, params: Record<string, string>) => {
  const next = new URL(url);
  for (const [k, v] of Object.entries(params)) next.searchParams.set(k, v);
  return next.toString();
};

/**
 * Reads every page of the v2 answer. The first request asks for `$count=true`; a server that refuses that option
 * (400) is asked once more without it. Then `@odata.nextLink` is followed while there is one (same origin only);
 * when there is none but `@odata.count` says more items exist than arrived, the rest is read with `$skip` (ordered
 * by id, so pages cannot shift), never stopping at a server's default page size. A 304 to the conditional first
 * request is returned as such.
 */
export async function fetchV2Pages(
  url: string,
  headers: Record<string, string>,
  options: RetryOptions & { maxPages?: number },
  control: RequestControl,
): Promise<V2Pages | { notModified: TextResponse }> {
  const origin = new URL(url).origin;
  const get = (pageUrl: string, pageHeaders: Record<string, string>) => fetchTextWithRetry(pageUrl, { method: 'GET', headers: pageHeaders }, options, control);
  let first: TextResponse;
  try {
    first = await get(withQuery(url, { $count: 'true', $orderby: 'id' }), headers);
  } catch (err) {
    if (!(err instanceof FeedHttpError && err.status === 400)) throw err;
    first = await get(url, headers);
  }
  if (first.status === 304) return { notModified: first };

  const plainHeaders = Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'if-none-match' && k !== 'if-modified-since'));
  const maxPages = options.maxPages ?? 1000;
  const values: unknown[] = [];
  const texts: string[] = [];
  const visited = new Set<string>();
  let response = first;
  let total: number | null = null;
  for (let page = 1; ; page++) {
    const body = parsePage(response);
    values.push(...body.value);
    texts.push(response.text);
    total ??= body['@odata.count'] ?? null;
    let next = body['@odata.nextLink'] ?? null;
    if (!next && total !== null && values.length < total) {
      if (body.value.length === 0) throw new FeedFormatError(`roadmap v2 answered ${values.length} of the ${total} items it counts, then an empty page`);
      next = withQuery(url, { $skip: String(values.length), $orderby: 'id', $count: 'true' });
    }
    if (!next) break;
    const absolute = new URL(next, url);
    if (absolute.origin !== origin) throw new FeedFormatError(`roadmap v2 nextLink points to another host: ${absolute.origin}`);
    if (visited.has(absolute.toString()) || page >= maxPages) throw new FeedFormatError('roadmap v2 paging does not end (nextLink repeats or too many pages)');
    visited.add(absolute.toString());
    response = await get(absolute.toString(), plainHeaders);
  }
  if (total !== null && values.length !== total) throw new FeedFormatError(`roadmap v2 counts ${total} items but answered ${values.length}`);
  return { values, first, text: texts.join('\n') };
}

function parsePage(response: TextResponse): z.infer<typeof rawRoadmapV2Page> {
  const text = response.text.replace(/^\ufeff/, '');
  if (text.trimStart().startsWith('<'))
    throw new FeedFormatError(`roadmap v2 answered markup instead of JSON (HTTP ${response.status}, ${response.headers.contentType ?? 'no content type'})`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new FeedFormatError(`roadmap v2 page is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = rawRoadmapV2Page.safeParse(json);
  if (!parsed.success) throw new FeedFormatError(`roadmap v2 page refused: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
