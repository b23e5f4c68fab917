import crypto from 'node:crypto';
import { FeedAbortedError, FeedError, FeedFormatError } from './errors.js';
import { fetchTextWithRetry, type RequestControl, type RetryOptions, type TextResponse } from './http.js';
import { parseJsonText, roadmapRecordsFromPayload } from './normalize.js';
import { parseRoadmapRss } from './roadmap-rss.js';
import { fetchV2Pages, roadmapRecordsFromV2Items, V2_ITEM_FIELDS } from './roadmap-v2.js';
import { driftOfItems, V1_ITEM_FIELDS, type SchemaDrift } from './schema-drift.js';
import { roadmapVocabulary, type RoadmapVocabulary } from './roadmap-vocabulary.js';
import type { RoadmapRecord } from './types.js';

export type RoadmapFeedFormat = 'v2' | 'json' | 'rss';

export interface RoadmapFeedOptions extends RetryOptions {
  /** ROADMAP_V2_URL: the v2 API (OData, paged), read first; null leaves it out of the chain. */
  v2Url?: string | null;
  /** ROADMAP_FEED_URL: the v1 feed, one JSON array of every item, no auth, no paging. */
  url: string;
  /** ROADMAP_RSS_URL: the official RSS feed, read when the JSON feeds are refused or broken; null disables it. */
  rssUrl?: string | null;
  /** ROADMAP_USER_AGENT: the JSON endpoints answer 403 to clients that do not look like a browser. */
  userAgent: string;
  /** Tag values by kind for the RSS mapping (known lists plus what the database has seen). */
  vocabulary?: () => Promise<RoadmapVocabulary>;
}

/** What a fetch was answered with, kept with the run that applied it so the next fetch can be conditional. */
export interface FeedValidators {
  url: string;
  etag: string | null;
  lastModified: string | null;
  /** SHA-256 (base64url) of the body as received. */
  bodyHash: string | null;
}

/** A source of the chain that failed before the one that answered, and why. */
export interface SkippedSource {
  format: RoadmapFeedFormat;
  reason: string;
}

interface FetchCommon {
  format: RoadmapFeedFormat;
  validators: FeedValidators;
  /** Why a later source of the chain was used, when it was. */
  note: string | null;
  /** The chain's first source (the preferred one) and every source that failed before the one that answered. */
  preferred: RoadmapFeedFormat;
  skipped: SkippedSource[];
}

export type RoadmapFetch =
  | (FetchCommon & {
      kind: 'unchanged';
      /** '304' (the server said so) or 'same-body' (same bytes as last applied: not parsed at all). */
      how: '304' | 'same-body';
    })
  | (FetchCommon & {
      kind: 'snapshot';
      records: RoadmapRecord[];
      /** The body as received (v2: every page's items as one `{ value }`), to keep if the snapshot guard holds it. */
      payload: string;
      /** Top-level item keys the format did not expect, and expected ones no item carried (schema drift). */
      drift: SchemaDrift;
    });

export interface RoadmapFeedClient {
  readonly url: string;
  /** The sources in the order they are tried (v2, v1 JSON, RSS; those configured). */
  readonly chain: readonly { format: RoadmapFeedFormat; url: string }[];
  /**
   * The first source of the chain that gives a usable answer. `previous` (what the last applied run read) makes the
   * request conditional and lets a body equal to the last applied one end as unchanged without parsing.
   */
  fetch(previous: FeedValidators | null, control?: RequestControl): Promise<RoadmapFetch>;
  /** The whole feed as records, unconditionally (benchmarks, tools). */
  fetchSnapshot(): Promise<RoadmapRecord[]>;
}

export const bodyHashOf = (text: string) => crypto.createHash('sha256').update(text).digest('base64url');

/** An HTML error page with status 200 is a refusal in disguise, not a feed. */
function refuseMarkup(text: string, response: TextResponse, what: string): void {
  const start = text
    .replace(/^\ufeff/, '')
    .trimStart()
    .slice(0, 1);
  if (start === '<')
    throw new FeedFormatError(`${what} answered markup instead of JSON (HTTP ${response.status}, ${response.headers.contentType ?? 'no content type'})`);
}

export const ROADMAP_FORMAT_NAMES: Record<RoadmapFeedFormat, string> = { v2: 'the v2 API', json: 'the v1 JSON feed', rss: 'the RSS feed' };

/**
 * The roadmap as a chain of sources: the v2 API, then the v1 JSON feed, then the RSS feed (those configured). A
 * source that is refused (403), missing (404, 410), broken (markup, bad JSON or XML, a refused item) or unreachable
 * after its retries hands over to the next; the answer says which one was used and why the earlier ones were not.
 * A stop (shutdown) ends the chain at once. Every source is mapped to the same records, so the sync sees one feed.
 */
export function createRoadmapFeedClient(options: RoadmapFeedOptions): RoadmapFeedClient {
  const chain = [
    ...(options.v2Url ? [{ format: 'v2' as const, url: options.v2Url }] : []),
    { format: 'json' as const, url: options.url },
    ...(options.rssUrl ? [{ format: 'rss' as const, url: options.rssUrl }] : []),
  ];
  const headersFor = (url: string, accept: string, previous: FeedValidators | null): Record<string, string> => {
    const headers: Record<string, string> = { accept, 'accept-language': 'en-US,en;q=0.9', 'user-agent': options.userAgent };
    if (previous && previous.url === url) {
      if (previous.etag) headers['if-none-match'] = previous.etag;
      if (previous.lastModified) headers['if-modified-since'] = previous.lastModified;
    }
    return headers;
  };
  const ACCEPT: Record<RoadmapFeedFormat, string> = {
    v2: 'application/json',
    json: 'application/json',
    rss: 'application/rss+xml, application/xml;q=0.9, text/xml;q=0.8',
  };

  type Answer =
    | Omit<Extract<RoadmapFetch, { kind: 'snapshot' }>, keyof Pick<FetchCommon, 'note' | 'preferred' | 'skipped'>>
    | Omit<Extract<RoadmapFetch, { kind: 'unchanged' }>, keyof Pick<FetchCommon, 'note' | 'preferred' | 'skipped'>>;

  async function fetchOne(format: RoadmapFeedFormat, url: string, previous: FeedValidators | null, control: RequestControl): Promise<Answer> {
    const sameUrl = previous?.url === url ? previous : null;
    const headers = headersFor(url, ACCEPT[format], previous);
    const notModified = (response: TextResponse): Answer => {
      if (!sameUrl) throw new FeedFormatError(`${url} answered 304 to a request that was not conditional`);
      return {
        kind: 'unchanged',
        format,
        how: '304',
        validators: { ...sameUrl, etag: response.headers.etag ?? sameUrl.etag, lastModified: response.headers.lastModified ?? sameUrl.lastModified },
      };
    };
    if (format === 'v2') {
      const pages = await fetchV2Pages(url, headers, options, control);
      if ('notModified' in pages) return notModified(pages.notModified);
      const validators: FeedValidators = {
        url,
        etag: pages.first.headers.etag,
        lastModified: pages.first.headers.lastModified,
        bodyHash: bodyHashOf(pages.text),
      };
      if (sameUrl?.bodyHash && sameUrl.bodyHash === validators.bodyHash) return { kind: 'unchanged', format, how: 'same-body', validators };
      const records = roadmapRecordsFromV2Items(pages.values);
      return {
        kind: 'snapshot',
        format,
        records,
        payload: JSON.stringify({ value: pages.values }),
        validators,
        drift: driftOfItems(pages.values, V2_ITEM_FIELDS),
      };
    }
    const response = await fetchTextWithRetry(url, { method: 'GET', headers }, options, control);
    if (response.status === 304) return notModified(response);
    const validators: FeedValidators = { url, etag: response.headers.etag, lastModified: response.headers.lastModified, bodyHash: bodyHashOf(response.text) };
    if (sameUrl?.bodyHash && sameUrl.bodyHash === validators.bodyHash) return { kind: 'unchanged', format, how: 'same-body', validators };
    if (format === 'json') {
      refuseMarkup(response.text, response, 'the roadmap JSON feed');
      const payload = parseJsonText(response.text, 'roadmap feed');
      const records = roadmapRecordsFromPayload(payload);
      return {
        kind: 'snapshot',
        format,
        records,
        payload: response.text,
        validators,
        drift: driftOfItems(Array.isArray(payload) ? payload : [], V1_ITEM_FIELDS),
      };
    }
    const vocabulary = options.vocabulary ? await options.vocabulary() : roadmapVocabulary();
    const { records, drift } = parseRoadmapRss(response.text, vocabulary);
    return { kind: 'snapshot', format, records, payload: response.text, validators, drift };
  }

  return {
    url: options.url,
    chain,
    async fetch(previous, control = {}) {
      const skipped: (SkippedSource & { error: FeedError })[] = [];
      const preferred = chain[0]?.format ?? 'json';
      for (const source of chain) {
        try {
          const answer = await fetchOne(source.format, source.url, previous, control);
          const note = skipped.length
            ? `${skipped.map((s) => `${capitalise(ROADMAP_FORMAT_NAMES[s.format])} was unusable (${s.reason})`).join('; ')}; ${ROADMAP_FORMAT_NAMES[source.format]} was used.`
            : null;
          return { ...answer, note, preferred, skipped: skipped.map(({ format, reason }) => ({ format, reason })) } as RoadmapFetch;
        } catch (err) {
          if (!(err instanceof FeedError) || err instanceof FeedAbortedError) throw err;
          skipped.push({ format: source.format, reason: err.message, error: err });
          const next = chain[chain.indexOf(source) + 1];
          if (next)
            options.log?.warn(
              { err: err.message, next: next.url },
              `roadmap: ${ROADMAP_FORMAT_NAMES[source.format]} unusable; trying ${ROADMAP_FORMAT_NAMES[next.format]}`,
            );
        }
      }
      if (skipped.length === 1 && skipped[0]) throw skipped[0].error;
      throw new CombinedFeedError(skipped.map((s) => ({ format: s.format, error: s.error })));
    },
    async fetchSnapshot() {
      const result = await this.fetch(null, {});
      if (result.kind !== 'snapshot') throw new FeedFormatError('unexpected unchanged answer');
      return result.records;
    },
  };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Every source of the chain failed; transient only if every failure was. */
export class CombinedFeedError extends FeedError {
  override name = 'FeedError';
  override readonly transient: boolean;
  constructor(readonly failures: { format: RoadmapFeedFormat; error: FeedError }[]) {
    super(failures.map((f) => `${ROADMAP_FORMAT_NAMES[f.format]}: ${f.error.message}`).join('; '));
    this.transient = failures.every((f) => f.error.transient);
  }
}
