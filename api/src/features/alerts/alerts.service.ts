import { ALERT_WEBHOOK_ITEMS, ROLE_NAMES, savedSearchQuery, type AlertSection } from '@radar/contracts';
import { loadRolesOf } from '../../http/auth.repo.js';
import type { TenantScope } from '../items/item-query.js';
import { tenantScopeOfUser } from '../tenants/tenant-scope.js';
import { visibleTenantIds } from '../items/tenant-status.repo.js';
import type { DbOrTx } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { MailService } from '../../mail/mail.service.js';
import { SECTIONS_PER_MESSAGE, testSections, type AlertMessage } from './alert-message.js';
import { alertItemsOf } from './alert-matching.js';
import { itemsInView, touchedChanges, type TouchedChange } from './alert-matching.repo.js';
import { enqueueAlert, newPublicId } from './alert-enqueue.js';
import { attemptDelivery, deliverDueAlerts, recordAttempt, type AlertDeliveryDeps, type AlertDeliveryResult } from './alert-delivery.js';
import { claimSyncAlert, isSyncAlerted, pruneAlertRecords, syncStartedAt, unalertedSyncs } from './alert-runs.repo.js';
import { relevanceAlertItems, withItemRelevance, withRelevanceItems } from './relevance-alerts.js';
import { claimPendingMoves, movesInPeriod, pruneRelevanceMoves, type RelevanceMove } from './relevance-moves.repo.js';
import { deliveryLog, startTestDelivery } from './deliveries.repo.js';
import { channelKey } from './channel-secrets.js';
import { createChannelsRepo, type ChannelWithOwner } from './channels.repo.js';
import { dueDigest } from './schedule.js';
import { createSavedSearchesRepo, type SavedSearchWithChannels } from './saved-searches.repo.js';
import { systemResolver, type Resolver } from './ssrf-guard.js';

type Deps = Pick<BaseDeps, 'db' | 'pool' | 'clock' | 'log' | 'secret' | 'publicUrl' | 'config'> & {
  mail: Pick<MailService, 'enqueue' | 'kick'>;
  /** DNS for the SSRF guard (node:dns by default; tests inject answers such as 127.0.0.1 or 169.254.169.254). */
  resolve?: Resolver;
};

/** How far back the sweep looks for syncs whose alert step never ran; markers and logs are kept 30 days. */
const SWEEP_LOOKBACK_MS = 24 * 60 * 60 * 1000;
const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Relevance moves the instant alerts take per transaction. */
const MOVES_PER_RUN = 5_000;

const chunk = <T>(list: T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/**
 * Saved-search alerts. Instant: after a sync commits (the sync's onItemsChanged hook, and a sweep job as the safety
 * net), every active instant search is matched against what that sync changed with the list's own WHERE, and each
 * channel gets ONE message for the sync listing its searches (at most 3 per message). Daily / weekly: a job finds the
 * searches whose slot is due and sends each a digest of the period. Everything an alert writes (the marker or the
 * claimed slot, webhook deliveries, mail) commits in one transaction with dedupe keys, so a re-run sends nothing twice.
 */
export function createAlertsService(deps: Deps) {
  const searches = createSavedSearchesRepo(deps.db);
  const channels = createChannelsRepo(deps.db);
  const guard = { allowPrivate: deps.config.ALLOW_PRIVATE_WEBHOOKS, resolve: deps.resolve ?? systemResolver };
  // Graceful shutdown (shutdown.ts): drain() stops new work and waits for the runs in progress; past the budget,
  // abortDeliveries() cuts the webhook requests still waiting for an answer (recorded as network errors, retried).
  let stopping = false;
  const shutdownAbort = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };
  const deliveryDeps: AlertDeliveryDeps = {
    db: deps.db,
    clock: deps.clock,
    log: deps.log,
    guard,
    channelKey: channelKey(deps.secret),
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    publicUrl: deps.publicUrl,
    mail: deps.mail,
    stopping: () => stopping,
    abort: shutdownAbort.signal,
  };
  const enqueueDeps = { publicUrl: deps.publicUrl, secret: deps.secret, mail: deps.mail };
  const settingsUrl = `${deps.publicUrl}/notifications`;
  let kicker: (() => Promise<unknown>) | null = null;

  const viewUrl = (id: number) => `${deps.publicUrl}/dashboard?savedSearch=${id}`;
  /** The tenants whose relevance a section tells (relevance moves), kept beside it: a section is sent as it is. */
  const relevanceTenantsOf = new WeakMap<AlertSection, number[]>();

  /**
   * Whose view a search alerts from, decided at every run from its owner's roles and grants as they are then: a
   * personal search the tenants its owner may see; an organisation search (only admins create those and choose the
   * organisation channels it goes to) every tenant's while its owner is an admin, and only what the owner may see
   * once they are not (a demoted admin's organisation search stops carrying private tenants' posts).
   */
  async function scopeOfSearch(search: SavedSearchWithChannels): Promise<TenantScope> {
    const roles = await loadRolesOf(deps.db, search.ownerUserId);
    return tenantScopeOfUser(
      deps.db,
      search.ownerUserId,
      roles.some((r) => r.name === ROLE_NAMES.admin),
    );
  }

  /**
   * The search's section for the syncs' `changes` and the relevance `moves` of the same run or period (a move counts
   * only for a search on relevance levels, relevance-alerts.ts), or null when nothing is the search's.
   */
  async function sectionFor(search: SavedSearchWithChannels, changes: TouchedChange[], now: Date, moves: RelevanceMove[] = []): Promise<AlertSection | null> {
    const query = savedSearchQuery.parse(search.query);
    const movesOfSearch = query.relevance?.length ? moves : [];
    if (changes.length === 0 && movesOfSearch.length === 0) return null;
    const scope = await scopeOfSearch(search);
    const inView = await itemsInView(deps.pool, [...changes.map((c) => c.itemRowId), ...movesOfSearch.map((m) => m.itemRowId)], query, now, scope);
    const tenantsSeen = await visibleTenantIds(deps.db, [...changes.map((c) => c.tenantId), ...movesOfSearch.map((m) => m.tenantId)], scope);
    const alertOn = search.alertOn as ('new' | 'changed')[];
    const { items: moved, tenantIds: movedTenants } = relevanceAlertItems(movesOfSearch, query.relevance, {
      inView,
      seesTenant: (id) => tenantsSeen.has(id),
      since: search.createdAt,
      publicUrl: deps.publicUrl,
    });
    const found = withRelevanceItems(
      alertItemsOf(changes, inView, alertOn, deps.publicUrl, (id) => id === null || tenantsSeen.has(id)),
      moved,
      alertOn,
    );
    if (found.length === 0) return null;
    const items = found.slice(0, ALERT_WEBHOOK_ITEMS);
    const rowIdOf = new Map([...changes, ...movesOfSearch].map((c) => [`${c.source}-${c.externalId}`, c.itemRowId]));
    const toldTenants = await withItemRelevance(deps.db, items, rowIdOf, scope);
    const section: AlertSection = {
      savedSearch: { id: search.id, name: search.name, scope: search.scope },
      viewUrl: viewUrl(search.id),
      total: found.length,
      items,
      more: Math.max(0, found.length - ALERT_WEBHOOK_ITEMS),
    };
    if (movedTenants.length || toldTenants.length) relevanceTenantsOf.set(section, [...movedTenants, ...toldTenants]);
    return section;
  }

  /** Channels by id that may receive alerts now (a paused channel gets none while paused). */
  async function liveChannels(ids: number[]): Promise<Map<number, ChannelWithOwner>> {
    const out = new Map<number, ChannelWithOwner>();
    for (const id of new Set(ids)) {
      const channel = await channels.byId(id);
      if (channel && !channel.paused) out.set(id, channel);
    }
    return out;
  }

  function message(channel: ChannelWithOwner, sections: AlertSection[], trigger: AlertMessage['trigger'], window: AlertMessage['window']): AlertMessage {
    const relevanceTenantIds = sections.flatMap((s) => relevanceTenantsOf.get(s) ?? []);
    return {
      publicId: newPublicId(),
      trigger,
      createdAt: deps.clock.now(),
      window,
      channel: { id: channel.id, name: channel.name },
      sections,
      settingsUrl,
      ...(relevanceTenantIds.length ? { relevanceTenantIds } : {}),
    };
  }

  function afterCommit(written: number) {
    if (written === 0) return;
    deps.mail.kick();
    if (stopping) return;
    kicker?.().catch((err) => deps.log.warn({ err }, 'could not schedule alert delivery; the periodic job will send it'));
  }

  /** The instant alerts of one sync (idempotent: a marker per sync, dedupe keys per channel message). */
  const alertSync = (syncId: number) => track(alertSyncNow(syncId));
  async function alertSyncNow(syncId: number): Promise<{ syncId: number; claimed: boolean; messages: number }> {
    if (await isSyncAlerted(deps.db, syncId)) return { syncId, claimed: false, messages: 0 };
    const startedAt = await syncStartedAt(deps.db, syncId);
    if (!startedAt) return { syncId, claimed: false, messages: 0 };
    const sync = { startedAt };
    // A search alerts only on syncs after it was saved (the sweep may run an older sync late).
    const eligible = (await searches.activeWithSchedule('instant')).filter((s) => s.createdAt.getTime() <= sync.startedAt.getTime());
    // Without a search to match, the sync's changes (all 1,900 items of a first sync) are not even read.
    const changes = eligible.length ? await touchedChanges(deps.db, { syncId }) : [];
    const byChannel = new Map<number, AlertSection[]>();
    for (const search of eligible) {
      const section = await sectionFor(search, changes, sync.startedAt);
      if (!section) continue;
      for (const id of search.channelIds) byChannel.set(id, [...(byChannel.get(id) ?? []), section]);
    }
    const live = await liveChannels([...byChannel.keys()]);
    const window = { from: null, to: sync.startedAt };
    const written = await deps.db.transaction(async (tx) => {
      if (!(await claimSyncAlert(tx as DbOrTx, syncId, live.size, deps.clock.now()))) return -1;
      let count = 0;
      for (const [id, sections] of byChannel) {
        const channel = live.get(id);
        if (!channel) continue;
        for (const [index, part] of chunk(sections, SECTIONS_PER_MESSAGE).entries()) {
          if (
            (await enqueueAlert(tx as DbOrTx, enqueueDeps, channel, message(channel, part, 'instant', window), `alert:instant:${syncId}:${id}:${index}`)) !==
            null
          )
            count++;
        }
      }
      return count;
    });
    if (written < 0) return { syncId, claimed: false, messages: 0 };
    afterCommit(written);
    if (written) deps.log.info({ syncId, messages: written }, 'saved-search alerts queued');
    return { syncId, claimed: true, messages: written };
  }

  /**
   * The instant alerts of relevance moves (a tenant's usage or licences moved an item's level; relevance-alerts.ts):
   * after each tenant's relevance refresh, the sweep catching up. The moves are taken in the transaction that writes
   * their alerts, so each is alerted once whoever runs it; the searches are those saved on relevance levels.
   */
  const alertRelevance = () => track(alertRelevanceNow());
  async function alertRelevanceNow(): Promise<{ moves: number; messages: number }> {
    let moves = 0;
    let messages = 0;
    while (!stopping) {
      const now = deps.clock.now();
      const onRelevance = (await searches.activeWithSchedule('instant')).filter((s) => savedSearchQuery.safeParse(s.query).data?.relevance?.length);
      const run = await deps.db.transaction(async (tx) => {
        // No search on relevance: the moves are only marked taken, nothing is read of them.
        const { taken, moves: claimed } = await claimPendingMoves(tx as DbOrTx, now, MOVES_PER_RUN, { read: onRelevance.length > 0 });
        const first = claimed[0];
        if (!first) return { taken, written: 0 };
        const byChannel = new Map<number, AlertSection[]>();
        for (const search of onRelevance) {
          const section = await sectionFor(search, [], now, claimed);
          if (!section) continue;
          for (const id of search.channelIds) byChannel.set(id, [...(byChannel.get(id) ?? []), section]);
        }
        const live = await liveChannels([...byChannel.keys()]);
        let written = 0;
        for (const [id, sections] of byChannel) {
          const channel = live.get(id);
          if (!channel) continue;
          for (const [index, part] of chunk(sections, SECTIONS_PER_MESSAGE).entries()) {
            const m = message(channel, part, 'instant', { from: null, to: now });
            if ((await enqueueAlert(tx as DbOrTx, enqueueDeps, channel, m, `alert:relevance:${first.id}:${id}:${index}`)) !== null) written++;
          }
        }
        return { taken, written };
      });
      moves += run.taken;
      messages += run.written;
      afterCommit(run.written);
      if (run.taken < MOVES_PER_RUN) break;
    }
    if (messages) deps.log.info({ moves, messages }, 'relevance alerts queued');
    return { moves, messages };
  }

  /**
   * Daily and weekly digests due at `now`: one message per search and channel (nothing when nothing matched). A
   * shutdown stops between searches; the next run sends the slots left over (a slot is due until it is claimed).
   */
  const runDigests = (now: Date) => track(runDigestsNow(now));
  async function runDigestsNow(now: Date): Promise<{ due: number; messages: number }> {
    let due = 0;
    let messages = 0;
    const periods = new Map<string, { touched: TouchedChange[]; moves?: RelevanceMove[] }>();
    for (const schedule of ['daily', 'weekly'] as const) {
      for (const search of await searches.activeWithSchedule(schedule)) {
        if (stopping) return { due, messages };
        const slot = dueDigest(
          { schedule, hour: search.hour, weekday: search.weekday, timeZone: search.timeZone, anchor: search.digestAnchorAt, lastDigestAt: search.lastDigestAt },
          now,
        );
        if (!slot) continue;
        due++;
        const key = `${slot.from.toISOString()}/${slot.slot.toISOString()}`;
        const period = periods.get(key) ?? { touched: await touchedChanges(deps.db, { from: slot.from, to: slot.slot }) };
        periods.set(key, period);
        // The period's relevance moves are read for the first search on relevance levels that needs them.
        if (savedSearchQuery.safeParse(search.query).data?.relevance?.length) period.moves ??= await movesInPeriod(deps.db, slot.from, slot.slot);
        const section = await sectionFor(search, period.touched, slot.slot, period.moves);
        // Without a section (nothing matched) no channel gets a message; the slot is still claimed below.
        const sections = section ? [section] : [];
        const live = section ? await liveChannels(search.channelIds) : new Map<number, ChannelWithOwner>();
        const written = await deps.db.transaction(async (tx) => {
          if (!(await createSavedSearchesRepo(tx as DbOrTx).claimDigestSlot(search.id, slot.slot))) return 0;
          let count = 0;
          for (const channel of live.values()) {
            const m = message(channel, sections, schedule, { from: slot.from, to: slot.slot });
            if ((await enqueueAlert(tx as DbOrTx, enqueueDeps, channel, m, `alert:${schedule}:${search.id}:${slot.slot.toISOString()}:${channel.id}`)) !== null)
              count++;
          }
          return count;
        });
        messages += written;
        afterCommit(written);
      }
    }
    return { due, messages };
  }

  /**
   * "Send test": a sample message to the channel now, through the same delivery path (SSRF guard, signature, log);
   * the answer carries the receiver's reply. A test is never retried and never pauses a channel.
   */
  const sendTest = (channel: ChannelWithOwner) => track(sendTestNow(channel));
  async function sendTestNow(channel: ChannelWithOwner) {
    const now = deps.clock.now();
    const m = message(channel, testSections(deps.publicUrl), 'test', { from: null, to: now });
    const id = await deps.db.transaction((tx) => enqueueAlert(tx as DbOrTx, enqueueDeps, channel, m, null));
    if (id === null) throw new Error('a test delivery could not be written');
    if (channel.kind === 'email') {
      deps.mail.kick();
    } else {
      const row = await startTestDelivery(deps.db, id, new Date(now.getTime() + 5 * 60_000));
      if (row) await recordAttempt(deliveryDeps, channel, row, await attemptDelivery(deliveryDeps, channel, row));
    }
    const [entry] = await deliveryLog(deps.db, channel.id, { deliveryId: id });
    return entry ?? null;
  }

  /**
   * Catch-up: alert every recent successful sync that changed items and has no marker, and relevance moves not taken
   * yet; prunes old markers, logs and moves.
   */
  async function sweepNow(): Promise<number[]> {
    const now = deps.clock.now();
    const done: number[] = [];
    for (const id of await unalertedSyncs(deps.db, new Date(now.getTime() - SWEEP_LOOKBACK_MS))) {
      if (stopping) break;
      if ((await alertSyncNow(id)).claimed) done.push(id);
    }
    if (!stopping) await alertRelevanceNow();
    await pruneAlertRecords(deps.db, new Date(now.getTime() - RETENTION_MS));
    await pruneRelevanceMoves(deps.db, new Date(now.getTime() - RETENTION_MS));
    if (done.length) deps.log.warn({ syncs: done }, 'alert sweep caught up on syncs that had not been alerted');
    return done;
  }

  async function deliverNowRounds(): Promise<AlertDeliveryResult> {
    const total: AlertDeliveryResult = { sent: 0, retrying: 0, failed: 0 };
    for (let round = 0; round < 50 && !stopping; round++) {
      const r = await deliverDueAlerts(deliveryDeps);
      total.sent += r.sent;
      total.retrying += r.retrying;
      total.failed += r.failed;
      if (r.sent + r.retrying + r.failed === 0) break;
    }
    return total;
  }

  return {
    alertSync,
    alertRelevance,
    sendTest,
    runDigests,
    deliveryDeps,

    /** Deliveries were written by someone else (triage notices): send them soon. */
    deliveriesWritten: () => afterCommit(1),

    /** The sync service's onItemsChanged hook. */
    async onItemsChanged(changes: { syncId: number }): Promise<void> {
      await alertSync(changes.syncId);
    },

    /** The alert-sweep job's safety net (sweepNow). */
    sweep: () => track(sweepNow()),

    /** Graceful shutdown: no new alert work and no new delivery; resolves when the runs in progress have finished. */
    async drain(): Promise<void> {
      stopping = true;
      kicker = null;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    /** Past the shutdown budget: cuts the webhook requests still waiting for an answer. */
    abortDeliveries(): void {
      shutdownAbort.abort(new Error('shutting down'));
    },

    /** Sends every due webhook delivery now (the job calls this; tests call it instead of waiting). */
    deliverNow: () => track(deliverNowRounds()),

    /** The job runner registers how to run the deliver-alerts job at once. */
    setKicker(fn: (() => Promise<unknown>) | null) {
      if (!stopping) kicker = fn;
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
