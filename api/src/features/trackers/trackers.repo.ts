import { and, count, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TrackerAttempt } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { syncHistory, trackers, trackerAttempts, trackerLinks, trackerOutbox, triageRecords } from '../../db/schema/index.js';
import { claimDue, purgeFinished, purgeLog, recordSuccess, releaseClaims, type RecordSpec } from '../../outbox/index.js';
import { type TenantScope } from '../items/item-query.js';
import { visibleTriageRecord } from '../triage/triage-views.js';

export type TrackerRow = typeof trackers.$inferSelect;
export type TrackerLinkRow = typeof trackerLinks.$inferSelect;
export type TrackerOutboxRow = typeof trackerOutbox.$inferSelect;

/** A tracker's linked tasks and how many of them are open (tasks deleted or given up count as linked). */
const linkCounts = {
  linked: count(),
  open: sql<number>`count(*) FILTER (WHERE ${trackerLinks.status} = 'open')::int`,
};

/** Entries the delivery log shows, newest first. */
export const ATTEMPT_LOG_LIMIT = 100;

export function createTrackersRepo(db: DbOrTx) {
  return {
    async list(): Promise<(TrackerRow & { linkedTasks: number; openTasks: number })[]> {
      const rows = await db.select().from(trackers).orderBy(trackers.id);
      const counts = await db
        .select({ trackerId: trackerLinks.trackerId, ...linkCounts })
        .from(trackerLinks)
        .groupBy(trackerLinks.trackerId);
      const by = new Map(counts.map((c) => [c.trackerId, c]));
      return rows.map((r) => ({ ...r, linkedTasks: by.get(r.id)?.linked ?? 0, openTasks: by.get(r.id)?.open ?? 0 }));
    },

    /** The trackers that take pushes now (not paused), by name. */
    async active(): Promise<{ id: number; name: string; kind: string }[]> {
      return db
        .select({ id: trackers.id, name: trackers.name, kind: trackers.kind })
        .from(trackers)
        .where(eq(trackers.paused, false))
        .orderBy(trackers.name, trackers.id);
    },

    /** One tracker's linked tasks and how many of them are open. */
    async taskCounts(id: number): Promise<{ linkedTasks: number; openTasks: number }> {
      const [row] = await db.select(linkCounts).from(trackerLinks).where(eq(trackerLinks.trackerId, id));
      return { linkedTasks: row?.linked ?? 0, openTasks: row?.open ?? 0 };
    },

    async byId(id: number): Promise<TrackerRow | null> {
      const [row] = await db.select().from(trackers).where(eq(trackers.id, id));
      return row ?? null;
    },

    /** The tracker, its row locked until the transaction ends (one process renews an OAuth token at a time). */
    async lockedById(id: number): Promise<TrackerRow | null> {
      const [row] = await db.select().from(trackers).where(eq(trackers.id, id)).for('update');
      return row ?? null;
    },

    async count(): Promise<number> {
      return db.$count(trackers);
    },

    async insert(values: typeof trackers.$inferInsert): Promise<TrackerRow> {
      return returned((await db.insert(trackers).values(values).returning())[0]);
    },

    async update(id: number, set: Partial<typeof trackers.$inferInsert>): Promise<void> {
      await db.update(trackers).set(set).where(eq(trackers.id, id));
    },

    async remove(id: number): Promise<void> {
      await db.delete(trackers).where(eq(trackers.id, id));
    },

    /** A success: the failure streak ends (the pull's reads count too). */
    async recordSuccess(id: number): Promise<void> {
      await recordSuccess(db, trackers, id);
    },

    // ------------------------------------------------------------------ links

    /** The record's link to the tracker, locked for this transaction (one push at a time per link). */
    async lockedLink(trackerId: number, recordId: number): Promise<TrackerLinkRow | null> {
      const [row] = await db
        .select()
        .from(trackerLinks)
        .where(and(eq(trackerLinks.trackerId, trackerId), eq(trackerLinks.recordId, recordId)))
        .for('update');
      return row ?? null;
    },

    async link(id: number): Promise<TrackerLinkRow | null> {
      const [row] = await db.select().from(trackerLinks).where(eq(trackerLinks.id, id));
      return row ?? null;
    },

    /** A new link; null when one was made for the record meanwhile. */
    async insertLink(values: typeof trackerLinks.$inferInsert): Promise<TrackerLinkRow | null> {
      const [row] = await db
        .insert(trackerLinks)
        .values(values)
        .onConflictDoNothing({ target: [trackerLinks.trackerId, trackerLinks.recordId] })
        .returning();
      return row ?? null;
    },

    async updateLink(id: number, set: Partial<typeof trackerLinks.$inferInsert>): Promise<void> {
      await db.update(trackerLinks).set(set).where(eq(trackerLinks.id, id));
    },

    /** The item's links (of the records the caller may see), with their tracker's name and kind and the record's tenant. */
    async linksOfItem(itemId: number, scope: TenantScope | undefined) {
      // `tr` is the alias the visibility rule names.
      const tr = alias(triageRecords, 'tr');
      return db
        .select({ link: trackerLinks, trackerName: trackers.name, kind: trackers.kind, tenantId: tr.tenantId })
        .from(trackerLinks)
        .innerJoin(trackers, eq(trackers.id, trackerLinks.trackerId))
        .innerJoin(tr, eq(tr.id, trackerLinks.recordId))
        .where(and(eq(tr.itemId, itemId), visibleTriageRecord(scope)))
        .orderBy(sql`${tr.tenantId} NULLS FIRST`, trackers.name, trackerLinks.id);
    },

    /** The links of records whose tasks exist in their tracker (made, and not deleted there or given up). */
    async madeLinksOfRecords(recordIds: readonly number[]): Promise<{ id: number; trackerId: number }[]> {
      if (recordIds.length === 0) return [];
      return db
        .select({ id: trackerLinks.id, trackerId: trackerLinks.trackerId })
        .from(trackerLinks)
        .where(and(inArray(trackerLinks.recordId, [...recordIds]), isNotNull(trackerLinks.externalId), inArray(trackerLinks.status, ['open', 'done'])))
        .orderBy(trackerLinks.id);
    },

    /** Links of items, by item id (the sync's changes become comments on their tasks). */
    async linksOfItems(itemIds: readonly number[]): Promise<{ id: number; trackerId: number; itemId: number }[]> {
      if (itemIds.length === 0) return [];
      return db
        .select({ id: trackerLinks.id, trackerId: trackerLinks.trackerId, itemId: triageRecords.itemId })
        .from(trackerLinks)
        .innerJoin(triageRecords, eq(triageRecords.id, trackerLinks.recordId))
        .where(and(inArray(triageRecords.itemId, [...itemIds]), inArray(trackerLinks.status, ['open', 'done', 'queued'])));
    },

    /** The tracker's tasks to read now: those read longest ago first. */
    async linksToPull(trackerId: number, limit: number): Promise<TrackerLinkRow[]> {
      return db
        .select()
        .from(trackerLinks)
        .where(and(eq(trackerLinks.trackerId, trackerId), inArray(trackerLinks.status, ['open', 'done']), isNotNull(trackerLinks.externalId)))
        .orderBy(sql`${trackerLinks.lastPulledAt} ASC NULLS FIRST`, trackerLinks.id)
        .limit(limit);
    },

    /** Syncs since `since` that changed items, oldest first (the pull's catch-up of comments a crash missed). */
    async changedSyncsSince(since: Date): Promise<number[]> {
      const rows = await db
        .select({ id: syncHistory.id })
        .from(syncHistory)
        .where(
          and(
            eq(syncHistory.status, 'success'),
            gte(syncHistory.startedAt, since),
            sql`${syncHistory.changedItems} + ${syncHistory.removedItems} + ${syncHistory.restoredItems} > 0`,
          ),
        )
        .orderBy(syncHistory.id);
      return rows.map((r) => r.id);
    },

    /** Whether any task is linked at all (nothing to comment on otherwise). */
    async hasLinks(): Promise<boolean> {
      return (await db.select({ id: trackerLinks.id }).from(trackerLinks).limit(1)).length > 0;
    },

    // ------------------------------------------------------------------ outbox

    /** Queues a call; a create or update joins one already waiting or in flight for the link, unless `alone`. */
    async enqueue(values: {
      trackerId: number;
      linkId: number;
      action: 'create' | 'update' | 'comment';
      text?: string;
      dedupeKey?: string;
      now: Date;
      alone?: boolean;
    }) {
      if (values.action !== 'comment' && !values.alone) {
        const [waiting] = await db
          .select({ id: trackerOutbox.id })
          .from(trackerOutbox)
          .where(
            and(
              eq(trackerOutbox.linkId, values.linkId),
              inArray(trackerOutbox.action, ['create', 'update']),
              inArray(trackerOutbox.status, ['pending', 'sending']),
            ),
          )
          .limit(1);
        if (waiting) return waiting.id;
      }
      const [row] = await db
        .insert(trackerOutbox)
        .values({
          trackerId: values.trackerId,
          linkId: values.linkId,
          action: values.action,
          text: values.text ?? null,
          dedupeKey: values.dedupeKey ?? null,
          createdAt: values.now,
          nextAttemptAt: values.now,
        })
        .onConflictDoNothing({ target: trackerOutbox.dedupeKey })
        .returning({ id: trackerOutbox.id });
      return row?.id ?? null;
    },

    /**
     * Claims up to `limit` due calls of unpaused trackers (attempts + 1, leased for `leaseMs`), oldest first; the
     * shared outbox claim (FOR UPDATE SKIP LOCKED), so two workers never make the same call. `onlyIds` restricts to given calls.
     */
    async claimDue(now: Date, limit: number, leaseMs: number, onlyIds?: number[]): Promise<TrackerOutboxRow[]> {
      return claimDue(db, trackerOutbox, {
        now,
        leaseMs,
        limit,
        join: sql`JOIN ${trackers} ON ${trackers.id} = ${trackerOutbox.trackerId}`,
        where: sql`NOT ${trackers.paused}`,
        onlyIds,
      });
    },

    /** Claimed calls a stopping process will not make: due again at once. */
    async release(ids: number[], now: Date): Promise<void> {
      await releaseClaims(db, trackerOutbox, ids, now);
    },

    /** The link's latest call not yet made or given up, for the task's state. */
    async pendingOf(linkIds: number[]): Promise<Map<number, TrackerOutboxRow>> {
      if (linkIds.length === 0) return new Map();
      const rows = await db
        .select()
        .from(trackerOutbox)
        .where(and(inArray(trackerOutbox.linkId, linkIds), inArray(trackerOutbox.status, ['pending', 'sending'])))
        .orderBy(trackerOutbox.id);
      return new Map(rows.map((r) => [r.linkId, r]));
    },

    // ------------------------------------------------------------------ log

    async insertAttempt(values: typeof trackerAttempts.$inferInsert): Promise<void> {
      await db.insert(trackerAttempts).values(values);
    },

    async attempts(trackerId: number): Promise<TrackerAttempt[]> {
      const rows = await db
        .select({ a: trackerAttempts, taskKey: trackerLinks.externalKey })
        .from(trackerAttempts)
        .leftJoin(trackerLinks, eq(trackerLinks.id, trackerAttempts.linkId))
        .where(eq(trackerAttempts.trackerId, trackerId))
        .orderBy(desc(trackerAttempts.attemptedAt), desc(trackerAttempts.id))
        .limit(ATTEMPT_LOG_LIMIT);
      return rows.map(({ a, taskKey }) => ({
        id: a.id,
        at: a.attemptedAt.toISOString(),
        action: a.action,
        taskKey,
        outcome: a.outcome as TrackerAttempt['outcome'],
        statusCode: a.statusCode,
        latencyMs: a.latencyMs,
        response: a.responseExcerpt,
        error: a.error,
      }));
    },

    /** Log entries and finished calls older than `before` go (the tracker-pull job's sweep). */
    async pruneAttempts(before: Date): Promise<void> {
      await purgeLog(db, trackerAttempts, before);
      await purgeFinished(db, trackerOutbox, before);
    },
  };
}

export type TrackersRepo = ReturnType<typeof createTrackersRepo>;

/** A queued call as the shared outbox records its attempts. */
export const callInOutbox = (row: Pick<TrackerOutboxRow, 'id' | 'attempts'>): NonNullable<RecordSpec['row']> => ({
  table: trackerOutbox,
  id: row.id,
  attempts: row.attempts,
});

/** A tracker's failure streak in the shared outbox's terms. */
export const trackerStreak = (trackerId: number, pauseAfter: number, reason: string): NonNullable<RecordSpec['streak']> => ({
  table: trackers,
  id: trackerId,
  pauseAfter,
  reason,
});
