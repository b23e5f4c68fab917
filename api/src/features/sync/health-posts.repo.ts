import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { items, type HealthPostRow } from '../../db/schema/index.js';
import type { HealthRecord } from '../../sources/types.js';

const keyOf = (post: HealthPostRow) => `${post.postedAt}\u0000${post.html}`;

/**
 * Service Health issues keep every update ever seen: a stored post the new copy of the issue no longer lists (Microsoft
 * trims or edits its posts, or another tenant saw an earlier state) is kept, in time order. A post whose text Microsoft
 * corrected is kept beside the correction: both were published.
 */
export async function reconcileHealthRecords(tx: DbOrTx, records: HealthRecord[]): Promise<HealthRecord[]> {
  if (records.length === 0) return records;
  const stored = await tx
    .select({ externalId: items.externalId, posts: items.healthPosts })
    .from(items)
    .where(
      and(
        eq(items.source, 'health'),
        inArray(
          items.externalId,
          records.map((r) => r.issueId),
        ),
      ),
    );
  const byId = new Map(stored.map((s) => [s.externalId, s.posts ?? []]));
  return records.map((record) => {
    const before = byId.get(record.issueId);
    if (!before?.length) return record;
    const listed = new Set(record.posts.map(keyOf));
    const kept = before.filter((post) => !listed.has(keyOf(post)));
    if (kept.length === 0) return record;
    return { ...record, posts: [...kept, ...record.posts].sort((a, b) => a.postedAt.localeCompare(b.postedAt)) };
  });
}
