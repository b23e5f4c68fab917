import accepts from 'accepts';
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import zlib from 'node:zlib';
import type { ItemListResponse, ListRelevance, ListTriage } from '@radar/contracts';
import { LruCache } from '../../lib/lru-cache.js';
import type { ToUnifiedItemOptions } from './item-mapper.js';
import { searchPlan, type ItemListRequest, type TenantScope } from './item-query.js';
import type { ItemsRepo } from './items.repo.js';

/** A list answer as sent: the JSON bytes and their strong validator. */
export interface ListAnswer {
  body: Buffer;
  /** A hash of the body: every process answering the same request at the same data version sends the same ETag. */
  etag: string;
  /** Compressed copies, made on the first request that accepts each encoding (see `encodedAnswer`, `answerCopyFor`). */
  encoded: Partial<Record<AnswerEncoding, Buffer>>;
  /** How hard its copies are compressed (see COMPRESSION). */
  compression: Compression;
}

/**
 * How hard an answer's copies are compressed. `thorough` (the compression middleware's settings: brotli quality 4,
 * gzip level 6) for the lists a dashboard asks for again and again, whose copy is made once and sent many times;
 * `fast` (brotli quality 1, gzip level 1) for a search's answer: nearly every search is asked once (each pause in
 * typing is a new one), so making its copy is most of what compressing it costs. For 50 real roadmap items (55 KB of
 * JSON) brotli quality 1 takes 0.1 ms where quality 4 takes 0.4–0.6 ms, for a copy 15 % larger (10 KB instead of 9).
 */
export type Compression = 'thorough' | 'fast';

const COMPRESSION: Record<Compression, { br: zlib.BrotliOptions; gzip: zlib.ZlibOptions }> = {
  thorough: { br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }, gzip: { level: 6 } },
  fast: { br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }, gzip: { level: 1 } },
};

export type AnswerEncoding = 'br' | 'gzip';

/** Below this the compression middleware sends answers as they are, and so does the list (its default threshold). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * The answer compressed with `encoding`, compressed once per cached answer rather than on every response
 * (compressing a page costs several times what serving the cached answer does: docs/benchmarks.md, "Figures behind the code"), as
 * hard as its `compression` says, and a validator of its own per copy. Undefined when the answer is too small to be
 * worth compressing. The cache's LIST_CACHE_MB weighs the JSON bytes only: the copies add about a sixth each.
 */
function encodedAnswer(answer: ListAnswer, encoding: AnswerEncoding): { body: Buffer; etag: string } | undefined {
  if (answer.body.length < COMPRESS_FROM_BYTES) return undefined;
  const settings = COMPRESSION[answer.compression];
  const body = (answer.encoded[encoding] ??= encoding === 'br' ? zlib.brotliCompressSync(answer.body, settings.br) : zlib.gzipSync(answer.body, settings.gzip));
  return { body, etag: `${answer.etag.slice(0, -1)}-${encoding}"` };
}

/** The bytes of `answer` to send to `req`, with their validator and Content-Encoding (none for the JSON as it is). */
export interface AnswerCopy {
  body: Buffer;
  etag: string;
  encoding?: AnswerEncoding;
}

/**
 * The copy of the answer a request takes: brotli when it accepts it, else gzip, else the JSON itself (the compression
 * middleware's preference), negotiated as Express's req.acceptsEncodings does. For the list route and its lane.
 */
export function answerCopyFor(answer: ListAnswer, req: IncomingMessage): AnswerCopy {
  const negotiate = accepts(req);
  const encoding = negotiate.encodings('br') ? 'br' : negotiate.encodings('gzip') ? 'gzip' : undefined;
  const encoded = encoding ? encodedAnswer(answer, encoding) : undefined;
  return encoded ? { ...encoded, encoding } : { body: answer.body, etag: answer.etag };
}

const ITEMS_OPEN = Buffer.from('{"items":[');
const COMMA = Buffer.from(',');

/** `{"items":[` + the items' JSON, comma-separated + `tail`: the bytes of JSON.stringify of the whole answer. */
function joinItems(items: readonly Buffer[], tail: string): Buffer {
  const parts: Buffer[] = [ITEMS_OPEN];
  items.forEach((item, i) => {
    if (i) parts.push(COMMA);
    parts.push(item);
  });
  parts.push(Buffer.from(tail));
  return Buffer.concat(parts);
}

/**
 * Whole answers of GET /api/unified/items by (query, audience, data version, time bucket). A hit costs one
 * primary-key read (the data version) and no other database work, mapping or serialising; any committed write to
 * item data moves the version, so an answer is never served after the data it shows has changed, in this process
 * or any other. The audience is part of the key because staff see moderator notes and who curated; a visit-based
 * query carries its baseline (`visitSince`), so one user's "since my last visit" is never another's.
 * `maxBytes` 0 turns the cache off (every request is computed; the totals and per-row JSON caches still apply).
 */
export type ListAnswers = ReturnType<typeof createListAnswers>;

/** The ids of the tenants a scope may see (the rule and the list GET /api/tenants answers). */
export type VisibleTenantIds = (scope: TenantScope | undefined) => Promise<number[]>;

/**
 * "Received by N of M tenants": of the tenants each item of the page received, those the caller may see (`visible`,
 * the M the dashboard counts), so a private tenant is never named, counted or numbered to someone who may not see it.
 * Items with none left are left out.
 */
export function visibleReceivers(tenantsOf: Record<string, number[]>, visible: ReadonlySet<number>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [uid, ids] of Object.entries(tenantsOf)) {
    const seen = ids.filter((id) => visible.has(id));
    if (seen.length) out[uid] = seen;
  }
  return out;
}

/** The triage of a page's items (by row id) as a signed-in caller may see it. */
export type TriageOfItems = (itemIds: number[], scope: TenantScope | undefined) => Promise<Map<number, ListTriage[]>>;

/**
 * The relevance of a page's items (by row id): each item's highest level among the tenants in scope (those `scope`
 * may see, of `among` when the list names tenants), with its tenant and reason. Items with none are left out.
 */
export type RelevanceOfItems = (itemIds: number[], scope: TenantScope | undefined, among: readonly number[] | undefined) => Promise<Map<number, ListRelevance>>;

/**
 * Who an answer is for: what its rows show (notes for staff) and whether it carries the items' triage and relevance
 * (signed-in users).
 */
export interface ListAudience extends ToUnifiedItemOptions {
  triage: boolean;
  relevance?: boolean;
}

/** A frozen query's JSON, kept with it: the list's lane hands the same frozen object for the same query text. */
const frozenQueryJson = new WeakMap<object, string>();

function queryJson(q: ItemListRequest): string {
  let json = frozenQueryJson.get(q);
  if (json === undefined) {
    json = JSON.stringify(q);
    if (Object.isFrozen(q)) frozenQueryJson.set(q, json);
  }
  return json;
}

export function createListAnswers(
  repo: ItemsRepo,
  opts: { maxBytes: number; visibleTenantIds: VisibleTenantIds; triageOf: TriageOfItems; relevanceOf?: RelevanceOfItems },
) {
  const answers = new LruCache<ListAnswer>({ entries: 10_000, weight: opts.maxBytes, weigh: (a) => a.body.length });
  const keyOf = (q: ItemListRequest, audience: ListAudience, point: { version: number; bucket: number | null }) =>
    `[${queryJson(q)},"${audience.includeNotes ? 'staff' : audience.triage || audience.relevance ? 'member' : 'public'}",${point.version},${point.bucket}]`;

  return {
    /** The answer; `onMiss` runs (and may refuse) before it is computed, never when a cached one is served. */
    async answer(q: ItemListRequest, now: Date, audience: ListAudience, onMiss?: () => Promise<void>): Promise<ListAnswer> {
      // The version is read before the data (readPoint): an answer is never cached under a version newer than its rows.
      // Triage records and relevance rows move the version too, so a cached answer's are as current as its rows.
      const point = await repo.readPoint(q, now);
      return answers.load(
        keyOf(q, audience, point),
        async () => {
          const { items, total, approximate, tenantsOf, keys } = await repo.listJson(q, point, audience);
          // The ItemListResponse shape, written from items the repo serialised (and cached) one by one: the same bytes
          // as JSON.stringify(body) would give.
          const tail: Omit<ItemListResponse, 'items'> = { total, totalPages: Math.ceil(total / q.limit), page: q.page };
          if (approximate) tail.totalApproximate = true;
          // Only a page with tenants' items asks which tenants the caller sees (the answer is cached with the page).
          const receivedBy = Object.keys(tenantsOf).length ? visibleReceivers(tenantsOf, new Set(await opts.visibleTenantIds(q.tenantScope))) : null;
          if (receivedBy) tail.receivedBy = receivedBy;
          if (audience.triage && keys.length) {
            const byId = await opts.triageOf(
              keys.map((k) => k.id),
              q.tenantScope,
            );
            const triage: Record<string, ListTriage[]> = {};
            for (const k of keys) {
              const records = byId.get(k.id);
              if (records?.length) triage[k.uid] = records;
            }
            tail.triage = triage;
          }
          if (audience.relevance && opts.relevanceOf && keys.length) {
            const byId = await opts.relevanceOf(
              keys.map((k) => k.id),
              q.tenantScope,
              q.tenants,
            );
            const relevance: Record<string, ListRelevance> = {};
            for (const k of keys) {
              const highest = byId.get(k.id);
              if (highest) relevance[k.uid] = highest;
            }
            // Absent when no item of the page has any (no tenant's relevance computed yet).
            if (Object.keys(relevance).length) tail.relevance = relevance;
          }
          const body = joinItems(items, `],${JSON.stringify(tail).slice(1)}`);
          // A search is what the repo searches for (`searchPlan`): punctuation alone is the plain list, asked again.
          const compression: Compression = searchPlan(q.search) ? 'fast' : 'thorough';
          return { body, etag: `"${crypto.createHash('sha256').update(body).digest('base64url')}"`, encoded: {}, compression };
        },
        undefined,
        onMiss,
      );
    },
  };
}
