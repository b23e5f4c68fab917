import { fetchTextWithRetry, type RetryOptions } from './http.js';
import { parseJsonText, roadmapRecordsFromPayload } from './normalize.js';
import type { RoadmapRecord } from './types.js';

export interface RoadmapFeedOptions extends RetryOptions {
  /** ROADMAP_FEED_URL: the public v1 feed, one JSON array of every item, no auth, no paging. */
  url: string;
}

export interface RoadmapFeedClient {
  readonly url: string;
  /** The whole feed, validated and normalised; throws a FeedError subclass when the fetch is unusable. */
  fetchSnapshot(): Promise<RoadmapRecord[]>;
}

export function createRoadmapFeedClient(options: RoadmapFeedOptions): RoadmapFeedClient {
  return {
    url: options.url,
    async fetchSnapshot() {
      const { text } = await fetchTextWithRetry(
        options.url,
        { method: 'GET', headers: { accept: 'application/json' } },
        options,
      );
      return roadmapRecordsFromPayload(parseJsonText(text, 'roadmap feed'));
    },
  };
}
