import type { BaseDeps } from './deps.js';
import { createAlertsService, type AlertsService } from './features/alerts/alerts.service.js';
import type { Resolver } from './features/alerts/ssrf-guard.js';
import { createAuthService, type AuthService } from './features/auth/auth.service.js';
import { createDigestService, type DigestService } from './features/digest/digest.service.js';
import { createTokensService, type TokensService } from './features/tokens/tokens.service.js';
import { createItemsRepo, type ItemsRepo } from './features/items/items.repo.js';
import { createListAnswers, type ListAnswers } from './features/items/list-answers.js';
import { createListForCaller, type ListForCaller } from './features/items/list-for-caller.js';
import { createTriageRepo } from './features/triage/triage.repo.js';
import { triageLens } from './features/triage/triage-lens.js';
import { createTrackerService, type TrackerService } from './features/trackers/tracker.service.js';
import { createTriageMail, type TriageMailService } from './features/triage/triage-mail.js';
import type { ListTriage } from '@radar/contracts';
import { createHeldAlerts } from './features/sync/held-alert.js';
import { createTenantGraphClients, type TenantGraphClients } from './features/tenants/tenant-graph.js';
import { createMissBudget, type MissBudget } from './http/miss-budget.js';
import { tenantSecretKey } from './features/tenants/tenant-secret.js';
import { createTenantsRepo } from './features/tenants/tenants.repo.js';
import { createHeldSyncService, type HeldSyncService } from './features/sync/held-sync.service.js';
import { createNotificationsService, type NotificationsService } from './features/subscriptions/notifications.service.js';
import { createRemoteRegistry, type RemoteRegistry } from './features/remotes/registry.js';
import { createMailService, type MailService } from './mail/mail.service.js';
import type { SyncService } from './features/sync/sync.service.js';
import type { SyncChangeSet } from './features/sync/sync-types.js';
import { createSyncServiceFor, heldPayloadParser } from './features/sync/wiring.js';
import { trackerPort } from './features/trackers/tracker-port.js';
import type { TrackerPort } from './features/triage/tracker-port.js';
import { triageSnapshotReactor } from './features/triage/triage-snapshot.js';
import { onRelevanceMoved } from './features/triage/triage-defaults.repo.js';
import { releaseOnAccessNarrowed } from './features/triage/triage-access.js';
import { withdrawOnAccessNarrowed } from './features/alerts/alert-audience.repo.js';
import type { AccessNarrowedReactor } from './lib/access-narrowed.js';
import { createRelevanceService, type RelevanceService } from './features/relevance/relevance.service.js';
import { createUsageService, type UsageService } from './features/usage/usage.service.js';

/**
 * The services shared by routes, jobs and the CLI, built once per process so that, for example, the sync service
 * an admin triggers is the same one the scheduled job uses. Each feature adds its service here.
 */
export interface Services {
  /** Outbox, delivery (deliverNow) and the SMTP mailer. */
  mail: MailService;
  /** Passwordless sign-in, sessions, current user. */
  auth: AuthService;
  /** Roadmap and Message Center sync (jobs, admin triggers, CLI). Notifications plug into its onItemsChanged. */
  sync: SyncService;
  /** Item-subscriber mails after a sync (the sync's onItemsChanged hook and the notify-subscribers job). */
  notifications: NotificationsService;
  /** Weekly digest page data, subscriptions and the Sunday mail (sendWeeklyDigest). */
  digest: DigestService;
  /** Personal API tokens: creation (with its mail), expiry notices, removal of long-expired tokens. */
  tokens: TokensService;
  /** Saved-search alerts: instant after a sync (onItemsChanged), daily/weekly digests, webhook delivery. */
  alerts: AlertsService;
  /** "Apply anyway" / "Discard" of a snapshot the sync's guard held. */
  heldSync: HeldSyncService;
  /** Triage mail: reminders, and each user's daily mail of items given to them, mentions and due dates. */
  triageMail: TriageMailService;
  trackers: TrackerService;
  /** The trackers as triage sees them (its rules push, its changes update tasks) without importing them. */
  trackerPort: TrackerPort;
  /** What the features do, in the narrowing transaction, when someone may have lost sight of a tenant's posts. */
  accessNarrowed: AccessNarrowedReactor;
  /** Each client's budget of answers no cache could give (CACHE_MISS_BUDGET). */
  missBudget: MissBudget;
  /**
   * Each item's relevance per tenant, kept for the list: refreshed after a tenant's sync (tenant-sync job) and after a
   * sync changed items (onItemsChanged).
   */
  relevance: RelevanceService;
  /** Each tenant's usage reports (read by tenantFollowUp; Admin → Tenants shows them). */
  usage: UsageService;
  /**
   * What follows a tenant's two feeds, in the tenant job's run and an admin's Sync now: its usage reports (when due; at
   * once on Sync now, so a permission just granted shows) and then its items' relevance. Neither fails the run: a
   * failure is logged, and said on the tenant (usage) or tried again at the next run (relevance).
   */
  tenantFollowUp(tenantId: number, opts: { usageNow: boolean }): Promise<void>;
  /** Each tenant's Graph client, kept while the tenant is unchanged (its token reused). */
  tenantClients: TenantGraphClients;
  /** Which build of each remote the shell loads (Admin → Remotes; the shell page and its CSP read it). */
  remotes: RemoteRegistry;
  /**
   * The item list's repo (its totals and row-JSON caches) and its cache of whole answers, shared by
   * GET /api/unified/items, its fast lane (http/fast-path/list-lane.ts), the export and the last-visit counts.
   */
  itemList: { repo: ItemsRepo; answers: ListAnswers; forCaller: ListForCaller };
}

/**
 * Runs every post-sync step, stage after stage (the steps of a stage side by side); one failing step is logged and
 * never keeps the others, nor the next stage, from running.
 */
function allHooks(log: BaseDeps['log'], ...stages: Record<string, (changes: SyncChangeSet) => Promise<void>>[]) {
  return async (changes: SyncChangeSet) => {
    for (const hooks of stages) {
      const results = await Promise.allSettled(Object.values(hooks).map((hook) => hook(changes)));
      results.forEach((r, i) => {
        if (r.status === 'rejected')
          log.error({ err: r.reason, step: Object.keys(hooks)[i], syncId: changes.syncId }, 'a post-sync step failed; its job catches up');
      });
    }
  };
}

/** `resolve` replaces the system DNS of the webhook SSRF guard (tests answer chosen addresses). */
export function createServices(base: BaseDeps, opts: { resolve?: Resolver } = {}): Services {
  const mail = createMailService(base);
  const auth = createAuthService({ ...base, mail });
  const notifications = createNotificationsService({ ...base, mail });
  const alerts = createAlertsService({ ...base, mail, resolve: opts.resolve });
  const triageMail = createTriageMail(base, mail, alerts);
  const trackers = createTrackerService({ ...base, mail, resolve: opts.resolve });
  // A relevance level that moves moves the default priority of the item's triage records, in the refresh's transaction.
  const relevance = createRelevanceService(base, { reactors: [onRelevanceMoved] });
  const tenantClients = createTenantGraphClients({ config: base.config, clock: base.clock, log: base.log, secretKey: tenantSecretKey(base.secret) });
  const usage = createUsageService({ ...base, services: { tenantClients } });
  const tenantFollowUp = async (tenantId: number, opts: { usageNow: boolean }) => {
    try {
      await (opts.usageNow ? usage.read(tenantId) : usage.readIfDue(tenantId));
    } catch (err) {
      base.log.error({ tenantId, err }, 'tenant usage not read');
    }
    try {
      await relevance.refreshTenant(tenantId);
    } catch (err) {
      base.log.error({ tenantId, err }, 'tenant relevance not refreshed');
    }
    // An item whose level moved into a saved search's relevance levels is news to it ("now High for Contoso").
    try {
      await alerts.alertRelevance();
    } catch (err) {
      base.log.error({ tenantId, err }, 'relevance alerts not sent; the alert sweep catches up');
    }
  };
  const sync = createSyncServiceFor(base, {
    tenantClients,
    // Triage opens its records, and its rules run, in each snapshot's transaction.
    reactors: [triageSnapshotReactor({ trackers: trackerPort, log: base.log })],
    onItemsChanged: allHooks(
      base.log,
      // First: a changed item's products (or its removal) change its relevance to every tenant, and the steps after
      // read it (a saved search on High relevance matches a new item by the relevance it has now).
      { relevance: relevance.onItemsChanged },
      {
        notifications: notifications.onItemsChanged,
        alerts: alerts.onItemsChanged,
        // Triage rules may have given new items to someone: they are told now (the triage-mail job catches up otherwise).
        triage: async () => void (await triageMail.deliver()),
        // The item's changes become comments on its tasks in the trackers.
        trackers: trackers.onItemsChanged,
      },
    ),
    heldAlerts: createHeldAlerts(base, mail),
  });
  const digest = createDigestService({ ...base, mail });
  const tokens = createTokensService({ ...base, mail });
  const heldSync = createHeldSyncService({ db: base.db, clock: base.clock, sync, parseHeld: heldPayloadParser(base.db) });
  const remotes = createRemoteRegistry(base);
  // Triage reads the list's filters, so the list cannot import triage: its views and the due sort are handed in.
  const itemsRepo = createItemsRepo(base.pool, { triage: triageLens });
  const tenantsRepo = createTenantsRepo(base.db);
  const answers = createListAnswers(itemsRepo, {
    maxBytes: base.config.LIST_CACHE_MB * 1024 * 1024,
    visibleTenantIds: async (scope) => (await tenantsRepo.visible(scope)).map((t) => t.id),
    triageOf: async (ids, scope) => {
      const out = new Map<number, ListTriage[]>();
      for (const [itemId, records] of await createTriageRepo(base.db).ofItems(ids, scope)) {
        // The list's triage is the export's without the item (the key) and the tenant's name (the list's own field).
        out.set(
          itemId,
          records.map(({ itemId: _itemId, tenantName: _tenantName, ...listed }) => listed),
        );
      }
      return out;
    },
    relevanceOf: relevance.highestOf,
  });
  const itemList = { repo: itemsRepo, answers, forCaller: createListForCaller({ db: base.db, answers }) };
  const accessNarrowed: AccessNarrowedReactor = async (tx, narrowed, now) => {
    await releaseOnAccessNarrowed(tx, narrowed, now);
    await withdrawOnAccessNarrowed(tx, narrowed, now);
  };
  const missBudget = createMissBudget({ perMinute: base.config.CACHE_MISS_BUDGET });
  return {
    mail,
    auth,
    sync,
    notifications,
    digest,
    tokens,
    alerts,
    heldSync,
    remotes,
    itemList,
    tenantClients,
    triageMail,
    trackers,
    trackerPort,
    accessNarrowed,
    missBudget,
    relevance,
    usage,
    tenantFollowUp,
  };
}
