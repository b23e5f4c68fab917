import crypto from 'node:crypto';

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
  private readonly entries = new Map<string, RenderedFeed>();
  private readonly rendering = new Map<string, Promise<RenderedFeed>>();
  private chars = 0;

  constructor(private readonly limits: { entries: number; chars: number } = { entries: 200, chars: 64_000_000 }) {}

  async get(key: string, render: () => Promise<{ body: string; lastModified: Date }>): Promise<RenderedFeed> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const running = this.rendering.get(key);
    if (running) return running;
    const promise = render().then(({ body, lastModified }) => {
      const rendered = { body, lastModified, etag: `"${crypto.createHash('sha256').update(body).digest('base64url')}"` };
      this.store(key, rendered);
      return rendered;
    });
    this.rendering.set(key, promise);
    try {
      return await promise;
    } finally {
      this.rendering.delete(key);
    }
  }

  private store(key: string, rendered: RenderedFeed): void {
    this.entries.set(key, rendered);
    this.chars += rendered.body.length;
    while (this.entries.size > this.limits.entries || (this.chars > this.limits.chars && this.entries.size > 1)) {
      const [oldKey, old] = this.entries.entries().next().value as [string, RenderedFeed];
      this.entries.delete(oldKey);
      this.chars -= old.body.length;
    }
  }
}
