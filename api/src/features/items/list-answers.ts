import crypto from 'node:crypto';
import type pg from 'pg';
import type { ItemListResponse } from '@radar/contracts';
import { LruCache } from '../../lib/lru-cache.js';
import type { ToUnifiedItemOptions } from './item-mapper.js';
import type { ItemListRequest } from './item-query.js';
import { readPoint, type ItemsRepo } from './items.repo.js';

/** A list answer as sent: the JSON bytes and their strong validator. */
export interface ListAnswer {
  body: Buffer;
  /** A hash of the body: every process answering the same request at the same data version sends the same ETag. */
  etag: string;
}

/**
 * Whole answers of GET /api/unified/items by (query, audience, data version, time bucket). A hit costs one
 * primary-key read (the data version) and no other database work, mapping or serialising; any committed write to
 * item data moves the version, so an answer is never served after the data it shows has changed, in this process
 * or any other. The audience is part of the key because staff see moderator notes and who curated; a visit-based
 * query carries its baseline (`visitSince`), so one user's "since my last visit" is never another's.
 * `maxBytes` 0 turns the cache off (every request is computed; the totals and per-row JSON caches still apply).
 */
export function createListAnswers(pool: pg.Pool, repo: ItemsRepo, opts: { maxBytes: number }) {
  const answers = new LruCache<ListAnswer>({ entries: 10_000, weight: opts.maxBytes, weigh: (a) => a.body.length });

  return {
    async answer(q: ItemListRequest, now: Date, audience: ToUnifiedItemOptions): Promise<ListAnswer> {
      // The version is read before the data (readPoint): an answer is never cached under a version newer than its rows.
      const point = await readPoint(pool, q, now);
      const key = JSON.stringify([q, audience.includeNotes ? 'staff' : 'public', point.version, point.bucket]);
      return answers.load(key, async () => {
        const { items, total } = await repo.listJson(q, point, audience);
        // The ItemListResponse shape, written from items the repo serialised (and cached) one by one: the same bytes
        // as JSON.stringify(body) would give.
        const tail: Omit<ItemListResponse, 'items'> = { total, totalPages: Math.ceil(total / q.limit), page: q.page };
        const body = Buffer.from(`{"items":[${items.join(',')}],${JSON.stringify(tail).slice(1)}`);
        return { body, etag: `"${crypto.createHash('sha256').update(body).digest('base64url')}"` };
      });
    },
  };
}
