import type { FeedFormat } from '@radar/contracts';
import type { Db } from '../../db/client.js';
import { ConflictError, DomainError, ServiceUnavailableError } from '../../lib/errors.js';
import { mergePendingItemIndexEntries } from '../../db/pending-index-entries.js';
import { FeedAbortedError, NotConfiguredError } from '../../sources/errors.js';
import { describeDrift, hasDrift } from '../../sources/schema-drift.js';
import type { HealthRecord, MessageRecord, RoadmapRecord, SourceName } from '../../sources/types.js';
import { applySnapshot } from './apply.js';
import { givenRecords, type FetchedSnapshot, type Loader } from './fetched.js';
import { supersedePending } from './held-snapshots.repo.js';
import { holdSnapshot } from './hold-snapshot.js';
import { healthAdapter, itemSourceOf, messageAdapter, roadmapAdapter, SYNC_SOURCE_LABELS, type SourceAdapter } from './records.js';
import { SnapshotHeldError, type GuardPolicy } from './snapshot-guard.js';
import type { InternalRunOptions, RunOptions, SyncResult, SyncServiceDeps, SyncTenant, TenantsSyncResult } from './sync-types.js';
import { withSourceLock } from '../../db/source-lock.js';
import { sourceChange } from './source-warning.js';
import { finishRun, lastAppliedFeed, lastLiveFormat, markInterruptedRuns, startRun, toSyncHistoryRecord, type SyncTrigger } from './sync-history.repo.js';
import { countActive } from './sync.repo.js';
import { countTenantLive } from './tenant-links.repo.js';

export class SyncAlreadyRunningError extends ConflictError {
  constructor(source: SourceName, tenant: { name: string } | null = null) {
    super(`A ${SYNC_SOURCE_LABELS[source]} sync${tenant ? ` of ${tenant.name}` : ''} is already running`);
  }
}

export class SyncShuttingDownError extends ServiceUnavailableError {
  constructor() {
    super('The server is shutting down; the sync was not started');
  }
}

const DEFAULT_GUARD: GuardPolicy = { maxRemovedPercent: 10, minRemovedItems: 25 };
export const SHUTDOWN_MESSAGE = 'interrupted: the process shut down before the feed answered; nothing was changed';

/**
 * One sync service for jobs, admin triggers, "Apply anyway" and the CLI. A run: take the source's lock (in-process
 * and a PostgreSQL advisory lock, so a job in another process cannot overlap an admin trigger), record a 'running'
 * row, fetch (conditionally), then either record `unchanged`, or apply the snapshot and finish the row in ONE
 * transaction — unless the snapshot guard holds it. A failed, refused or held fetch changes no item.
 */
export function createSyncService(deps: SyncServiceDeps) {
  const running = new Set<string>();
  const inFlight = new Set<Promise<unknown>>();
  const fetches = new Set<AbortController>();
  let stopping = false;

  async function execute<R>(db: Db, adapter: SourceAdapter<R>, load: Loader<R>, options: InternalRunOptions): Promise<SyncResult> {
    const source = adapter.source;
    const tenant = options.tenant ?? null;
    const tenantId = tenant?.id ?? null;
    const startedAt = deps.clock.now();
    await markInterruptedRuns(db, source, startedAt, tenant);
    const started = await startRun(db, source, options.trigger, startedAt, options.triggeredBy ?? null, tenant);
    const log = deps.log.child({ sync: started.id, source, trigger: options.trigger, ...(tenant ? { tenant: tenant.name } : {}) });

    const controller = new AbortController();
    fetches.add(controller);
    let fetched;
    try {
      fetched = await load({ previous: await lastAppliedFeed(db, source, tenant), signal: controller.signal });
    } catch (err) {
      const status = err instanceof NotConfiguredError ? 'not_configured' : err instanceof FeedAbortedError ? 'interrupted' : 'failed';
      const message = status === 'interrupted' ? SHUTDOWN_MESSAGE : ((err as Error).message ?? String(err));
      const row = await finishRun(db, started.id, { status, finishedAt: deps.clock.now(), errorMessage: message });
      if (status === 'not_configured') log.warn(`${SYNC_SOURCE_LABELS[source]} sync skipped: ${message}`);
      else if (status === 'interrupted') log.info(`${SYNC_SOURCE_LABELS[source]} sync stopped by the shutdown; nothing was changed`);
      else log.error({ err }, `${SYNC_SOURCE_LABELS[source]} sync failed while fetching; nothing was changed`);
      return { run: toSyncHistoryRecord(row), changes: null };
    } finally {
      fetches.delete(controller);
    }

    if (fetched.kind === 'snapshot' && hasDrift(fetched.drift))
      log.warn({ drift: fetched.drift }, `${SYNC_SOURCE_LABELS[source]} feed schema drift: ${describeDrift(fetched.drift)}`);
    const change = sourceChange(fetched.chain ? await lastLiveFormat(db, source, tenant) : null, fetched.format, fetched.chain);
    if (change.warning) log.warn({ format: fetched.format }, change.warning);
    const withRecovery = (note: string | null) => [note, change.recovered].filter(Boolean).join(' ') || null;

    if (fetched.kind === 'unchanged') {
      const row = await db.transaction(async (tx) => {
        await supersedePending(tx, source, null, startedAt, tenantId);
        const totalItems = tenant ? await countTenantLive(tx, tenant.id, itemSourceOf(source)) : await countActive(tx, itemSourceOf(source));
        return finishRun(tx, started.id, {
          status: 'unchanged',
          finishedAt: deps.clock.now(),
          totalItems,
          feedFormat: fetched.format,
          validators: fetched.validators,
          note: withRecovery(fetched.note ?? 'The feed has not changed since the last applied sync.'),
          warning: change.warning,
        });
      });
      log.info({ format: fetched.format }, `${SYNC_SOURCE_LABELS[source]} feed unchanged`);
      return { run: toSyncHistoryRecord(row), changes: null };
    }

    try {
      const outcome = await db.transaction((tx) =>
        applySnapshot(tx, {
          adapter,
          snapshot: fetched.records,
          now: startedAt,
          syncId: started.id,
          demo: options.demo ?? false,
          finishedAt: () => deps.clock.now(),
          guard: options.force ? null : (deps.guard ?? DEFAULT_GUARD),
          reconcile: fetched.reconcile,
          finish: {
            feedFormat: fetched.format,
            note: withRecovery(fetched.note),
            validators: fetched.validators,
            warning: change.warning,
            drift: fetched.drift ?? null,
          },
          tenant,
          reactors: deps.reactors,
          afterApply: async (tx) => {
            // First the caller's (marking the held snapshot being applied), then every other pending one is stale.
            await options.afterApply?.(tx, started.id);
            await supersedePending(tx, source, null, startedAt, tenantId);
          },
        }),
      );
      const { counts } = outcome;
      if (counts.newItems + counts.changedItems + counts.removedItems + counts.restoredItems > 0) await mergePendingItemIndexEntries(db, log);
      log.info(
        { ...counts, totalItems: outcome.run.totalItems, removedDemoItems: outcome.removedDemoItems, format: fetched.format },
        `${SYNC_SOURCE_LABELS[source]} sync finished`,
      );
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
      if (err instanceof SnapshotHeldError) return holdSnapshot(deps, db, adapter, started.id, fetched, err, change.warning, tenant);
      if (err instanceof DomainError) {
        // A refusal decided inside the transaction (the held snapshot was decided meanwhile): recorded, then answered.
        await finishRun(db, started.id, { status: 'failed', finishedAt: deps.clock.now(), errorMessage: err.message });
        throw err;
      }
      log.error({ err }, `${SYNC_SOURCE_LABELS[source]} sync failed while writing; the transaction was rolled back`);
      const row = await finishRun(db, started.id, {
        status: 'failed',
        finishedAt: deps.clock.now(),
        errorMessage: `database error: ${(err as Error).message}`,
      });
      return { run: toSyncHistoryRecord(row), changes: null };
    }
  }

  async function followUp(source: SourceName, db: Db, tenant: SyncTenant | null): Promise<void> {
    const controller = new AbortController();
    fetches.add(controller);
    try {
      await deps.afterSync?.(source, db, controller.signal, tenant);
    } catch (err) {
      if (!controller.signal.aborted)
        deps.log.error({ err, source }, `${SYNC_SOURCE_LABELS[source]} follow-up after the sync failed; the sync itself is committed`);
    } finally {
      fetches.delete(controller);
    }
  }

  async function run<R>(adapter: SourceAdapter<R>, load: Loader<R>, options: InternalRunOptions): Promise<SyncResult> {
    const source = adapter.source;
    const tenant = options.tenant ?? null;
    // One run at a time per source, and per tenant for Message Center: tenants never wait for each other.
    const key = tenant ? `${source}:${tenant.id}` : source;
    if (stopping) throw new SyncShuttingDownError();
    if (running.has(key)) throw new SyncAlreadyRunningError(source, tenant);
    running.add(key);
    const task = withSourceLock(
      deps.pool,
      source,
      async (db) => {
        const result = await execute(db, adapter, load, options);
        if (result.run.status === 'success' && deps.afterSync) await followUp(source, db, tenant);
        return result;
      },
      tenant?.id,
    );
    inFlight.add(task);
    try {
      const result = await task;
      if (!result.locked) throw new SyncAlreadyRunningError(source, tenant);
      return result.value;
    } finally {
      inFlight.delete(task);
      running.delete(key);
    }
  }

  /** One tenant's Message Center; a failure to build its loader (a secret that cannot be read) is its run's failure. */
  async function syncTenant(tenant: SyncTenant, options: RunOptions): Promise<SyncResult> {
    if (!deps.tenants) throw new Error('tenants are not wired into the sync service');
    const tenants = deps.tenants;
    const load: Loader<MessageRecord> = async (args) => (await tenants.loader(tenant))(args);
    return run(messageAdapter, load, { ...options, tenant });
  }

  /** One tenant's Service Health (its incidents and advisories, with their posts). */
  async function syncTenantHealth(tenant: SyncTenant, options: RunOptions): Promise<SyncResult> {
    if (!deps.tenants) throw new Error('tenants are not wired into the sync service');
    const tenants = deps.tenants;
    const load: Loader<HealthRecord> = async (args) => (await tenants.healthLoader(tenant))(args);
    return run(healthAdapter, load, { ...options, tenant });
  }

  /**
   * Every enabled tenant's Message Center (or Service Health), at most `concurrency` at once. One tenant failing (a
   * revoked secret, 401, Graph down), or already running elsewhere, never stops or delays another: each run is
   * recorded on its own. Without tenants Message Center is read unscoped; Service Health has nothing to read.
   */
  async function syncAllTenants(options: RunOptions, source: 'message_center' | 'service_health' = 'message_center'): Promise<TenantsSyncResult> {
    const enabled = (await deps.tenants?.enabled()) ?? [];
    if (enabled.length === 0) {
      return { runs: [], unscoped: source === 'message_center' ? await run(messageAdapter, deps.fetchMessages, options) : null };
    }
    const syncOne = source === 'message_center' ? syncTenant : syncTenantHealth;
    const runs: TenantsSyncResult['runs'] = [];
    const queue = [...enabled];
    const worker = async () => {
      for (let tenant = queue.shift(); tenant; tenant = queue.shift()) {
        if (stopping) break;
        try {
          runs.push({ tenant, result: await syncOne(tenant, options), error: null });
        } catch (err) {
          runs.push({ tenant, result: null, error: err as Error });
          if (!(err instanceof SyncAlreadyRunningError)) deps.log.error({ err, tenant: tenant.name }, `tenant ${SYNC_SOURCE_LABELS[source]} sync failed`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(deps.tenants?.concurrency ?? 1, enabled.length)) }, worker));
    runs.sort((a, b) => enabled.indexOf(a.tenant) - enabled.indexOf(b.tenant));
    return { runs, unscoped: null };
  }

  const adapterOf = (source: SourceName) => (source === 'roadmap' ? roadmapAdapter : messageAdapter) as SourceAdapter<RoadmapRecord | MessageRecord>;

  return {
    /** Fetch the live roadmap feed (JSON, or RSS when refused) and apply it. */
    syncRoadmap: (options: RunOptions) => run(roadmapAdapter, deps.fetchRoadmap, options),
    /** Fetch every enabled tenant's Message Center from Graph and apply each (unscoped, as syncMessages, without tenants). */
    syncMessageCenter: (options: RunOptions) => syncAllTenants(options),
    /** Message Center unscoped, from `fetchMessages` (not_configured without credentials). */
    syncMessages: (options: RunOptions) => run(messageAdapter, deps.fetchMessages, options),
    /** One tenant's Message Center now. */
    syncTenant,
    /** Every enabled tenant's Service Health, one run each ({ runs: [] } without tenants). */
    syncServiceHealth: (options: RunOptions) => syncAllTenants(options, 'service_health'),
    /** One tenant's Service Health now. */
    syncTenantHealth,
    /** Apply records that came from elsewhere (CLI files, the demo data set) through the same path. */
    applyRoadmap: (records: RoadmapRecord[], options: RunOptions & { demo?: boolean }) =>
      run(roadmapAdapter, givenRecords(records, formatOf(options)), options),
    applyMessages: (records: MessageRecord[], options: RunOptions & { demo?: boolean }) =>
      run(messageAdapter, givenRecords(records, formatOf(options)), options),
    /** Applies a snapshot without the guard (a held one, parsed again): see held-sync.service.ts. */
    applyForced: (
      source: SourceName,
      snapshot: FetchedSnapshot<RoadmapRecord | MessageRecord>,
      options: RunOptions & Pick<InternalRunOptions, 'afterApply' | 'tenant'>,
    ) => run(adapterOf(source), async () => snapshot, { ...options, force: true }),
    isRunning: (source: SourceName, tenant?: SyncTenant | null) => running.has(tenant ? `${source}:${tenant.id}` : source),

    /**
     * At start-up: runs left 'running' by a process that died are marked interrupted. Each source is checked under
     * its advisory lock, so a run another live process owns is left alone.
     */
    async recoverInterruptedRuns(): Promise<number> {
      let total = 0;
      for (const source of ['roadmap', 'message_center', 'service_health'] as const) {
        const result = await withSourceLock(deps.pool, source, (db) => markInterruptedRuns(db, source, deps.clock.now()));
        if (result.locked) total += result.value;
      }
      if (total > 0) deps.log.warn({ runs: total }, 'sync runs left running by a stopped process were marked interrupted');
      return total;
    },

    /** Graceful shutdown: no new runs; resolves when the running ones have finished. */
    async drain(): Promise<void> {
      stopping = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    /** Past the shutdown budget: stops the fetches in progress (their runs end interrupted, nothing applied). */
    abortFetches(): void {
      for (const controller of fetches) controller.abort(new Error('shutting down'));
    },
  };
}

function formatOf(options: { trigger: SyncTrigger; demo?: boolean }): FeedFormat {
  return options.demo ? 'demo' : 'file';
}

export type SyncService = ReturnType<typeof createSyncService>;
