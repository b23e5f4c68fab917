import crypto from 'node:crypto';
import { FeedError, FeedFormatError } from './errors.js';
import { fetchTextWithRetry, type RequestControl, type RetryOptions, type TextResponse } from './http.js';
import { parseJsonText, roadmapRecordsFromPayload } from './normalize.js';
import { roadmapRecordsFromRss } from './roadmap-rss.js';
import { roadmapVocabulary, type RoadmapVocabulary } from './roadmap-vocabulary.js';
import type { RoadmapRecord } from './types.js';

export interface RoadmapFeedOptions extends RetryOptions {
  /** ROADMAP_FEED_URL: the public v1 feed, one JSON array of every item, no auth, no paging. */
  url: string;
  /** ROADMAP_RSS_URL: the official RSS feed, read when the JSON feed is refused or broken; null disables it. */
  rssUrl?: string | null;
  /** ROADMAP_USER_AGENT: the JSON endpoint answers 403 to clients that do not look like a browser. */
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

export type RoadmapFetch =
  | {
      kind: 'unchanged';
      format: 'json' | 'rss';
      validators: FeedValidators;
      /** '304' (the server said so) or 'same-body' (same bytes as last applied: not parsed at all). */
      how: '304' | 'same-body';
      note: string | null;
    }
  | {
      kind: 'snapshot';
      format: 'json' | 'rss';
      records: RoadmapRecord[];
      /** The body as received, to keep if the snapshot guard holds it. */
      payload: string;
      validators: FeedValidators;
      /** Why the RSS fallback was used, when it was. */
      note: string | null;
    };

export interface RoadmapFeedClient {
  readonly url: string;
  /**
   * The JSON feed, or the RSS feed when the JSON one fails. `previous` (what the last applied run read) makes the
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

export function createRoadmapFeedClient(options: RoadmapFeedOptions): RoadmapFeedClient {
  const rssUrl = options.rssUrl ?? null;
  const headersFor = (url: string, accept: string, previous: FeedValidators | null): Record<string, string> => {
    const headers: Record<string, string> = { accept, 'accept-language': 'en-US,en;q=0.9', 'user-agent': options.userAgent };
    if (previous && previous.url === url) {
      if (previous.etag) headers['if-none-match'] = previous.etag;
      if (previous.lastModified) headers['if-modified-since'] = previous.lastModified;
    }
    return headers;
  };

  async function fetchOne(format: 'json' | 'rss', url: string, previous: FeedValidators | null, control: RequestControl): Promise<RoadmapFetch> {
    const accept = format === 'json' ? 'application/json' : 'application/rss+xml, application/xml;q=0.9, text/xml;q=0.8';
    const response = await fetchTextWithRetry(url, { method: 'GET', headers: headersFor(url, accept, previous) }, options, control);
    const sameUrl = previous?.url === url ? previous : null;
    if (response.status === 304) {
      if (!sameUrl) throw new FeedFormatError(`${url} answered 304 to a request that was not conditional`);
      return {
        kind: 'unchanged',
        format,
        how: '304',
        note: null,
        validators: { ...sameUrl, etag: response.headers.etag ?? sameUrl.etag, lastModified: response.headers.lastModified ?? sameUrl.lastModified },
      };
    }
    const validators: FeedValidators = { url, etag: response.headers.etag, lastModified: response.headers.lastModified, bodyHash: bodyHashOf(response.text) };
    if (sameUrl?.bodyHash && sameUrl.bodyHash === validators.bodyHash) return { kind: 'unchanged', format, how: 'same-body', note: null, validators };
    if (format === 'json') {
      refuseMarkup(response.text, response, 'the roadmap JSON feed');
      const records = roadmapRecordsFromPayload(parseJsonText(response.text, 'roadmap feed'));
      return { kind: 'snapshot', format, records, payload: response.text, validators, note: null };
    }
    const vocabulary = options.vocabulary ? await options.vocabulary() : roadmapVocabulary();
    const records = roadmapRecordsFromRss(response.text, vocabulary);
    return { kind: 'snapshot', format, records, payload: response.text, validators, note: null };
  }

  return {
    url: options.url,
    async fetch(previous, control = {}) {
      try {
        return await fetchOne('json', options.url, previous, control);
      } catch (jsonErr) {
        if (!(jsonErr instanceof FeedError) || jsonErr.name === 'FeedAbortedError' || !rssUrl) throw jsonErr;
        options.log?.warn({ err: jsonErr.message, rss: rssUrl }, 'roadmap JSON feed unusable; trying the RSS feed');
        try {
          const viaRss = await fetchOne('rss', rssUrl, previous, control);
          return { ...viaRss, note: `JSON feed unusable (${jsonErr.message}); the RSS feed was used` };
        } catch (rssErr) {
          if (!(rssErr instanceof FeedError)) throw rssErr;
          throw new CombinedFeedError(jsonErr, rssErr);
        }
      }
    },
    async fetchSnapshot() {
      const result = await fetchOne('json', options.url, null, {});
      if (result.kind !== 'snapshot') throw new FeedFormatError('unexpected unchanged answer');
      return result.records;
    },
  };
}

/** Both the JSON feed and its RSS fallback failed; transient only if both failures were. */
export class CombinedFeedError extends FeedError {
  override name = 'FeedError';
  override readonly transient: boolean;
  constructor(
    readonly json: FeedError,
    readonly rss: FeedError,
  ) {
    super(`roadmap JSON feed: ${json.message}; RSS fallback: ${rss.message}`);
    this.transient = json.transient && rss.transient;
  }
}
