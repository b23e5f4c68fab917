import type { ConnectionCheck, PlannerOptionsResponse } from '@radar/contracts';
import type { BaseDeps } from '../../deps.js';
import type { DbOrTx } from '../../db/client.js';
import type { TenantRow } from '../../db/schema/index.js';
import type { MailService } from '../../mail/mail.service.js';
import { systemResolver, type GuardOptions, type Resolver } from '../alerts/ssrf-guard.js';
import { createGraphSession } from './connectors/graph-session.js';
import { plannerOptions } from './connectors/planner-options.js';
import { openTokens } from './oauth.js';
import { createTrackersRepo, type TrackerRow } from './trackers.repo.js';
import type { TrackerHttpOptions } from './tracker-http.js';
import { createTrackerAuth } from './tracker-auth.js';
import { createTrackerDelivery } from './tracker-delivery.js';
import { createTrackerPull } from './tracker-pull.js';
import { queueTaskPush, TRACKER_DELIVERY } from './tracker-queue.js';

export { trackerSecretKey, queueLinkedUpdates, queueTaskPush, TRACKER_DELIVERY } from './tracker-queue.js';

/** How far back the pull looks for syncs whose comments a crash may have missed. */
const COMMENT_SWEEP_MS = 24 * 60 * 60 * 1000;

export interface TrackerServiceDeps extends Pick<BaseDeps, 'db' | 'clock' | 'log' | 'publicUrl' | 'secret' | 'config'> {
  mail: Pick<MailService, 'enqueue' | 'kick'>;
  /** DNS for the SSRF guard (tests answer chosen addresses). */
  resolve?: Resolver;
}

/**
 * Tracker tasks of triage records: pushing (through the outbox), reading back (the pull), and the item's changes as
 * comments. Every call to a tracker is one entry of the tracker's delivery log; retryable failures (network,
 * timeouts, 429 with its Retry-After, 5xx) are retried with backoff; TRACKER_PAUSE_AFTER_FAILURES failed calls in
 * a row pause the tracker and mail the admins, and its calls wait until it is resumed.
 */
export function createTrackerService(deps: TrackerServiceDeps) {
  const { db, clock, log } = deps;
  const guard: GuardOptions = { allowPrivate: deps.config.ALLOW_PRIVATE_WEBHOOKS, resolve: deps.resolve ?? systemResolver };
  const shutdown = new AbortController();
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  let kicker: (() => Promise<unknown>) | null = null;
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };
  const http = (): TrackerHttpOptions => ({ guard, timeoutMs: TRACKER_DELIVERY.timeoutMs, abort: shutdown.signal });
  const auth = createTrackerAuth(deps, http);
  const { key, graphTokens, sealSecret, openSecret, plannerTenantFrom, connectorFor, callbackUrl, authorizeUrlOf, completeAuthorization } = auth;
  const runtime = { deps, connectorFor, isStopping: () => stopping };
  const delivery = createTrackerDelivery(runtime);
  const { classify, record, deliverDue, deliverRounds } = delivery;
  const { pull, pullAll, commentsForSync } = createTrackerPull(runtime, delivery);

  function kick() {
    if (stopping) return;
    kicker?.().catch((err: unknown) => log.warn({ err }, 'could not schedule tracker delivery; the periodic job makes the calls'));
  }

  return {
    /** The SSRF guard every call passes (a site is checked with it when saved too). */
    guard,
    sealSecret,
    openSecret,
    connectorFor,
    callbackUrl,
    authorizeUrlOf,
    completeAuthorization,
    /** Who authorized a tracker's OAuth sign-in and when (never the tokens). */
    authorizationOf(row: TrackerRow) {
      const tokens = openTokens(key, row.oauthSealed);
      return tokens ? { authorizedBy: tokens.authorizedBy, authorizedAt: tokens.authorizedAt } : null;
    },
    /** Forgets the tokens kept for a tracker whose sign-in changed. */
    forgetTokens: auth.forgetTokens,

    /** Test: the connector's checks, each logged; a connection that cannot even be built says why. */
    async test(tracker: TrackerRow): Promise<ConnectionCheck[]> {
      const connector = await connectorFor(tracker);
      if (typeof connector === 'string') return [{ name: 'Secret', ok: false, message: connector }];
      const started = performance.now();
      try {
        const checks = await connector.test();
        const failed = checks.filter((c) => !c.ok);
        await createTrackersRepo(db).insertAttempt({
          trackerId: tracker.id,
          action: 'test',
          attemptedAt: clock.now(),
          outcome: failed.length ? 'failed' : 'sent',
          latencyMs: Math.round(performance.now() - started),
          responseExcerpt: checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.message}`).join('\n'),
          error: failed.length ? (failed[0]?.message ?? null) : null,
        });
        return checks;
      } catch (err) {
        const result = classify(err, 1);
        await record(tracker, null, null, 'test', result);
        return [{ name: 'Connection', ok: false, message: result.error ?? 'No answer' }];
      }
    },

    /** The groups, plans and buckets a Planner target is chosen from, read with the app of `row`, the tenant asked for. */
    async plannerOptions(query: { tenantId: number; groupId?: string; planId?: string }, row: TenantRow): Promise<PlannerOptionsResponse> {
      const tenant = plannerTenantFrom(row);
      if (typeof tenant === 'string') return { groups: [], plans: [], buckets: [], problem: tenant };
      const session = createGraphSession(tenant, { ...http(), guard: null }, graphTokens, () => clock.now().getTime());
      return plannerOptions(session, query);
    },

    /** Pushes a record to a tracker inside the caller's transaction (see queueTaskPush). */
    push: (tx: DbOrTx, trackerId: number, recordId: number, recreate: boolean) => queueTaskPush(tx, trackerId, recordId, recreate, clock.now()),

    /** Makes the given calls now (after their transaction committed): the push answers with the task when it can. */
    deliverNow: (onlyIds?: number[]) => track(onlyIds ? deliverDue(onlyIds) : deliverRounds()),

    pull: (trackerId: number) => track(pull(trackerId)),
    pullAll: () => track(pullAll()),

    /**
     * The sync's hook: the calls the sync queued (rules that create tasks) are made, and each meaningful change of an
     * item with tasks becomes a comment on them (once per sync).
     */
    async onItemsChanged(changes: { syncId: number }): Promise<void> {
      // Triage rules may have queued tasks for the sync's new records: they go out now.
      kick();
      if ((await commentsForSync(changes.syncId)) > 0) kick();
    },

    /**
     * The pull's safety net: the comments of the last day's syncs, for a process that died between a sync's commit
     * and its hook (each comment has a dedupe key, so none is queued twice).
     */
    async sweepComments(): Promise<number> {
      const repo = createTrackersRepo(db);
      if (!(await repo.hasLinks())) return 0;
      let queued = 0;
      for (const syncId of await repo.changedSyncsSince(new Date(clock.now().getTime() - COMMENT_SWEEP_MS))) queued += await commentsForSync(syncId);
      if (queued > 0) kick();
      return queued;
    },

    /** Drops log entries and finished calls older than 30 days. */
    prune: () => createTrackersRepo(db).pruneAttempts(new Date(clock.now().getTime() - TRACKER_DELIVERY.retentionMs)),

    /** Graceful shutdown: no new calls; resolves when the ones in progress have finished. */
    async drain(): Promise<void> {
      stopping = true;
      kicker = null;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    /** Past the shutdown budget: cuts the requests still waiting for an answer. */
    abortCalls(): void {
      shutdown.abort(new Error('shutting down'));
    },
    /** The job runner registers how to run the tracker-deliver job at once. */
    setKicker(fn: (() => Promise<unknown>) | null) {
      if (!stopping) kicker = fn;
    },
    kick,
  };
}

export type TrackerService = ReturnType<typeof createTrackerService>;
