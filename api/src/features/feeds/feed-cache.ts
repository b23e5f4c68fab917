import crypto from 'node:crypto';
import { LruCache } from '../../lib/lru-cache.js';

export interface RenderedFeed {
  body: string;
  /** Strong validator: a hash of the body, so any process rendering the same data gives the same ETag. */
  etag: string;
  lastModified: Date;
}

/**
 * Rendered feeds by key (format, view, data version, time bucket). Requests for the same key while it renders share
 * one rendering; entries are evicted least recently used, bounded by count and by characters. A new data version
 * is a new key, so nothing stale is ever served; old versions simply age out.
 */
export class FeedCache {
  private readonly cache: LruCache<RenderedFeed>;

  constructor(limits: { entries: number; chars: number } = { entries: 200, chars: 64_000_000 }) {
    this.cache = new LruCache({ entries: limits.entries, weight: limits.chars, weigh: (r) => r.body.length });
  }

  /** The rendered feed; `onMiss` runs (and may refuse) before a rendering starts, never for a cached one. */
  get(key: string, render: () => Promise<{ body: string; lastModified: Date }>, onMiss?: () => Promise<void>): Promise<RenderedFeed> {
    return this.cache.load(
      key,
      async () => {
        const { body, lastModified } = await render();
        return { body, lastModified, etag: `"${crypto.createHash('sha256').update(body).digest('base64url')}"` };
      },
      undefined,
      onMiss,
    );
  }
}
