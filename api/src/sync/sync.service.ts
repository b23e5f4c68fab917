import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { SyncHistoryRecord } from '@radar/contracts';
import type { Db } from '../db/client.js';
import * as schema from '../db/schema.js';
import { ConflictError } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../logger.js';
import { NotConfiguredError } from '../sources/errors.js';
import type { MessageRecord, RoadmapRecord, SourceName } from '../sources/types.js';
import type { ItemChange } from './plan.js';
import { messageAdapter, roadmapAdapter, type SourceAdapter } from './records.js';
import { applySnapshot } from './apply.js';
import { failInterruptedRuns, finishRun, startRun, toSyncHistoryRecord, type SyncTrigger } from './sync-history.repo.js';

export class SyncAlreadyRunningError extends ConflictError {
  constructor(source: SourceName) {
    super(`A ${source === 'roadmap' ? 'Roadmap' : 'Message Center'} sync is already running`);
  }
}

/** What a finished sync hands on (to subscriber notifications). `itemId` is the items.id of the row. */
export interface SyncChangeSet {
  source: SourceName;
  syncId: number;
  changes: (ItemChange & { itemId: number })[];
}

export interface SyncServiceDeps {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  log: Logger;
  /** Where the live snapshots come from (production clients, or the replay server in tests). */
  fetchRoadmap: () => Promise<RoadmapRecord[]>;
  fetchMessages: () => Promise<MessageRecord[]>;
  /** Called after a committed sync that changed something; failures are logged, never undo the sync. */
  onItemsChanged?: (changes: SyncChangeSet) => Promise<void> | void;
}

export interface RunOptions {
  trigger: SyncTrigger;
  triggeredBy?: number | null;
}

export interface SyncResult {
  run: SyncHistoryRecord;
  changes: SyncChangeSet | null;
}

/** Two-key advisory locks: one namespace for the product, one key per source. */
const LOCK_NAMESPACE = 0x52414441;
const LOCK_KEY: Record<SourceName, number> = { roadmap: 1, message_center: 2 };
const LABEL: Record<SourceName, string> = { roadmap: 'Roadmap', message_center: 'Message Center' };

/**
 * One sync service for jobs, admin triggers and the CLI. A run: take the source's lock (in-process and a PostgreSQL
 * advisory lock, so a job in another process cannot overlap an admin trigger), record a 'running' row, fetch,
 * then apply the snapshot and finish the row in ONE transaction. A failed or refused fetch changes no item.
 */
export function createSyncService(deps: SyncServiceDeps) {
  const running = new Set<SourceName>();

  async function run<R>(
    adapter: SourceAdapter<R>,
    load: () => Promise<R[]>,
    options: RunOptions & { demo?: boolean },
  ): Promise<SyncResult> {
    const source = adapter.source;
    if (running.has(source)) throw new SyncAlreadyRunningError(source);
    running.add(source);
    const client = await deps.pool.connect();
    const db = drizzle(client, { schema });
    let locked = false;
    try {
      const lock = await db.execute<{ locked: boolean }>(sql`select pg_try_advisory_lock(${LOCK_NAMESPACE}, ${LOCK_KEY[source]}) as locked`);
      locked = lock.rows[0]?.locked === true;
      if (!locked) throw new SyncAlreadyRunningError(source);
      const startedAt = deps.clock.now();
      await failInterruptedRuns(db, source, startedAt);
      const started = await startRun(db, source, options.trigger, startedAt, options.triggeredBy ?? null);
      const log = deps.log.child({ sync: started.id, source, trigger: options.trigger });

      let snapshot: R[];
      try {
        snapshot = await load();
      } catch (err) {
        const notConfigured = err instanceof NotConfiguredError;
        const message = (err as Error).message ?? String(err);
        const row = await finishRun(db, started.id, {
          status: notConfigured ? 'not_configured' : 'failed',
          finishedAt: deps.clock.now(),
          errorMessage: message,
        });
        if (notConfigured) log.warn(`${LABEL[source]} sync skipped: ${message}`);
        else log.error({ err }, `${LABEL[source]} sync failed while fetching; nothing was changed`);
        return { run: toSyncHistoryRecord(row), changes: null };
      }

      try {
        const outcome = await db.transaction((tx) =>
          applySnapshot(tx, { adapter, snapshot, now: startedAt, syncId: started.id, demo: options.demo ?? false, finishedAt: () => deps.clock.now() }),
        );
        const { counts } = outcome;
        log.info({ ...counts, totalItems: outcome.run.totalItems, removedDemoItems: outcome.removedDemoItems }, `${LABEL[source]} sync finished`);
        const changes = outcome.changes.length ? { source, syncId: started.id, changes: outcome.changes } : null;
        if (changes && deps.onItemsChanged) {
          try {
            await deps.onItemsChanged(changes);
          } catch (err) {
            log.error({ err }, 'onItemsChanged failed; the sync itself is committed');
          }
        }
        return { run: toSyncHistoryRecord(outcome.run), changes };
      } catch (err) {
        log.error({ err }, `${LABEL[source]} sync failed while writing; the transaction was rolled back`);
        const row = await finishRun(db, started.id, {
          status: 'failed',
          finishedAt: deps.clock.now(),
          errorMessage: `database error: ${(err as Error).message}`,
        });
        return { run: toSyncHistoryRecord(row), changes: null };
      }
    } finally {
      if (locked) await db.execute(sql`select pg_advisory_unlock(${LOCK_NAMESPACE}, ${LOCK_KEY[source]})`).catch(() => undefined);
      client.release();
      running.delete(source);
    }
  }

  return {
    /** Fetch the live roadmap feed and apply it. */
    syncRoadmap: (options: RunOptions) => run(roadmapAdapter, deps.fetchRoadmap, options),
    /** Fetch Message Center from Graph and apply it (not_configured without credentials). */
    syncMessages: (options: RunOptions) => run(messageAdapter, deps.fetchMessages, options),
    /** Apply records that came from elsewhere (CLI files, the demo data set) through the same path. */
    applyRoadmap: (records: RoadmapRecord[], options: RunOptions & { demo?: boolean }) =>
      run(roadmapAdapter, async () => records, options),
    applyMessages: (records: MessageRecord[], options: RunOptions & { demo?: boolean }) =>
      run(messageAdapter, async () => records, options),
    isRunning: (source: SourceName) => running.has(source),
  };
}

export type SyncService = ReturnType<typeof createSyncService>;
