import {
  connectionTestOf,
  endpoints,
  TRACKER_KIND_LABELS,
  TRACKERS_MAX,
  jiraSettings,
  plannerSettings,
  serviceNowSettings,
  type Tracker,
  type TrackerKind,
  type TrackerTask,
  type TrackerTaskStatus,
} from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin } from '../../http/auth.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { ConflictError, InputError, NotFoundError, UpstreamError } from '../../lib/errors.js';
import { checkWebhookUrl, WebhookUrlError } from '../alerts/ssrf-guard.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import { findItem, findRecord } from '../triage/triage-records.js';
import { createTriageRepo } from '../triage/triage.repo.js';
import type { TenantScope } from '../items/item-query.js';
import { mayUseTracker, refusalToCarry } from './tracker-tenants.repo.js';
import { createTrackersRepo, type TrackerRow, type TrackerLinkRow } from './trackers.repo.js';
import { TrackerError } from './tracker-http.js';

const SECRET_FIELDS = ['apiToken', 'password', 'clientSecret'] as const;

/** The secret a tracker takes: Jira's API token, ServiceNow's password, an OAuth app's client secret; Planner none. */
function secretFieldOf(kind: string, settings: Record<string, unknown>): (typeof SECRET_FIELDS)[number] | null {
  if (kind === 'planner') return null;
  if (settings.auth === 'oauth') return 'clientSecret';
  return kind === 'jira' ? 'apiToken' : 'password';
}

/** Where Admin → Trackers is; the OAuth callback sends the admin back there. */
const TRACKERS_PAGE = '/admin?tab=integrations';

/** How long a push waits for the tracker before it answers "queued" (the outbox goes on trying). */
const PUSH_WAIT_MS = 10_000;

/**
 * Admin → Trackers and the tasks of triage records. Connections are the admins'; a push is a moderator's or an
 * admin's (the record is read with the caller's tenant scope, so a private tenant's record cannot be pushed by
 * someone who may not see it); the tasks of an item are shown to every signed-in user who may see its records.
 */
export function createTrackersEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createTrackersRepo(ctx.db);
  const trackers = ctx.services.trackers;

  function answer(row: TrackerRow & { linkedTasks?: number; openTasks?: number }): Tracker {
    const oauth = row.settings.auth === 'oauth' || row.settings.auth === 'delegated';
    const authorized = oauth ? trackers.authorizationOf(row) : null;
    return {
      id: row.id,
      kind: row.kind as TrackerKind,
      name: row.name,
      settings: row.settings,
      // Planner signs in with its tenant's app: its secret is the tenant's (Admin → Tenants says whether it is readable).
      hasSecret: row.kind === 'planner' || trackers.openSecret(row.secretSealed) !== null,
      authorization: oauth
        ? {
            authorized: authorized !== null,
            authorizedBy: authorized?.authorizedBy ?? null,
            authorizedAt: authorized?.authorizedAt ?? null,
            callbackUrl: trackers.callbackUrl,
          }
        : null,
      paused: row.paused,
      pausedReason: row.pausedReason,
      consecutiveFailures: row.consecutiveFailures,
      linkedTasks: row.linkedTasks ?? 0,
      openTasks: row.openTasks ?? 0,
      lastPullAt: row.lastPullAt?.toISOString() ?? null,
      lastPullError: row.lastPullError,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function load(id: number) {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`Tracker ${id} not found`);
    return row;
  }

  /** A tracker as answered, with its task counts. */
  async function answerOf(id: number) {
    return answer({ ...(await load(id)), ...(await repo.taskCounts(id)) });
  }

  /** The site must pass the SSRF guard of webhooks (https, public addresses) when saved, and again at every call. */
  async function checkSite(url: string) {
    try {
      await checkWebhookUrl(url, trackers.guard);
    } catch (err) {
      if (err instanceof WebhookUrlError) {
        if (err.detail !== err.message) ctx.log.warn({ detail: err.detail }, 'tracker URL refused');
        throw new InputError(`baseUrl: ${err.message}`, [{ path: 'baseUrl', message: err.message }]);
      }
      throw err;
    }
  }

  /** Settings checked for the kind; a bad one is a 400 naming `settings.<field>`. */
  function settingsOf(kind: string, input: Record<string, unknown>) {
    const schema = kind === 'jira' ? jiraSettings : kind === 'planner' ? plannerSettings : serviceNowSettings;
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: ['settings', ...i.path].join('.'), message: i.message }));
      throw new InputError(`${issues[0]?.path}: ${issues[0]?.message}`, issues);
    }
    return parsed.data as Record<string, unknown> & { baseUrl?: string; tenantId?: number };
  }

  /** A Planner tracker's tenant must be connected with an app (its client id and secret sign in). */
  async function checkTenant(tenantId: number, field: string) {
    const tenant = await createTenantsRepo(ctx.db).get(tenantId);
    if (!tenant) throw new InputError(`${field}: no tenant has id ${tenantId}`, [{ path: field, message: 'not a tenant' }]);
    if (!tenant.clientId || !tenant.clientSecretSealed) {
      throw new InputError(`${field}: ${tenant.name} has no app registration: enter its client id and secret in Admin → Tenants`, [
        { path: field, message: 'tenant without an app' },
      ]);
    }
    return tenant;
  }

  /** Where the settings point: the site through the SSRF guard, or the Planner tenant; the private tenants it may carry exist. */
  async function checkTarget(settings: { baseUrl?: string; tenantId?: number; privateTenantIds?: unknown }, prefix: string) {
    if (settings.baseUrl !== undefined) await checkSite(settings.baseUrl);
    if (settings.tenantId !== undefined) await checkTenant(settings.tenantId, `${prefix}tenantId`);
    const listed = Array.isArray(settings.privateTenantIds) ? (settings.privateTenantIds as number[]) : [];
    const known = new Set((await createTenantsRepo(ctx.db).list()).map((t) => t.id));
    const unknown = listed.filter((id) => !known.has(id));
    if (unknown.length) {
      const field = `${prefix}privateTenantIds`;
      throw new InputError(`${field}: no tenant has the id ${unknown.join(', ')}`, [{ path: field, message: `no tenant has the id ${unknown.join(', ')}` }]);
    }
  }

  /** The active trackers that may carry at least one of the item's records the caller may see (a private tenant's: refusalToCarry). */
  async function targetsFor(itemId: number, scope: TenantScope | undefined) {
    const records = await createTriageRepo(ctx.db).recordsOf(itemId, scope);
    const targets: { id: number; name: string; kind: TrackerKind }[] = [];
    for (const target of await repo.active()) {
      const row = await repo.byId(target.id);
      if (!row || !(await mayUseTracker(ctx.db, row, scope))) continue;
      const refusals = await Promise.all(records.map((r) => refusalToCarry(ctx.db, row, r.id)));
      if (records.length === 0 || refusals.some((r) => r === null)) targets.push({ ...target, kind: target.kind as TrackerKind });
    }
    return targets;
  }

  function taskOf(link: TrackerLinkRow, tracker: { name: string; kind: string }, tenantId: number | null): TrackerTask {
    const status: TrackerTaskStatus =
      link.status === 'deleted' ? 'deleted' : link.status === 'failed' ? 'failed' : !link.externalId ? 'queued' : link.status === 'done' ? 'done' : 'open';
    return {
      trackerId: link.trackerId,
      trackerName: tracker.name,
      kind: tracker.kind as TrackerKind,
      tenantId,
      status,
      key: link.externalKey,
      url: link.externalUrl,
      remoteState: link.remoteState,
      lastError: link.lastError,
      lastPulledAt: link.lastPulledAt?.toISOString() ?? null,
    };
  }

  return [
    implement(endpoints.trackers.list, async () => ({ trackers: (await repo.list()).map(answer) })),

    implement(endpoints.trackers.plannerOptions, async ({ query }) => {
      return trackers.plannerOptions(query, await checkTenant(query.tenantId, 'tenantId'));
    }),

    implement(endpoints.trackers.create, async ({ body, auth }) => {
      if ((await repo.count()) >= TRACKERS_MAX) throw new ConflictError(`There are already ${TRACKERS_MAX} trackers: delete one first`);
      const { kind, name, ...rest } = body;
      const { apiToken: _token, password: _password, clientSecret: _client, ...settings } = rest as Record<string, unknown>;
      const field = secretFieldOf(kind, settings);
      const secret = field ? ((body as Record<string, unknown>)[field] as string) : null;
      await checkTarget(settings, '');
      const now = ctx.clock.now();
      const row = await repo.insert({
        kind,
        name,
        settings: settingsOf(kind, settings),
        secretSealed: secret === null ? null : trackers.sealSecret(secret),
        createdById: auth.user.id,
        createdAt: now,
        updatedAt: now,
      });
      ctx.log.info({ trackerId: row.id, kind, userId: auth.user.id }, 'tracker added');
      return Reply.status(201, await answerOf(row.id));
    }),

    implement(endpoints.trackers.update, async ({ params: { id }, body }) => {
      const row = await load(id);
      const now = ctx.clock.now();
      const set: Parameters<typeof repo.update>[1] = { updatedAt: now };
      if (body.name) set.name = body.name;
      const settings = body.settings ? settingsOf(row.kind, { ...row.settings, ...body.settings }) : row.settings;
      if (body.settings) {
        await checkTarget(settings, 'settings.');
        set.settings = settings;
      }
      const label = TRACKER_KIND_LABELS[row.kind as TrackerKind] ?? row.kind;
      const takes = secretFieldOf(row.kind, settings);
      const secret = takes ? body[takes] : undefined;
      for (const field of SECRET_FIELDS) {
        if (field === takes || body[field] === undefined) continue;
        throw new InputError(`${field}: ${takes ? `this ${label} tracker takes ${takes}` : `${label} signs in with its tenant's app and takes no secret`}`, [
          { path: field, message: `not used by ${row.kind}` },
        ]);
      }
      // The stored secret belongs to the old way of signing in: a new way takes its own secret in the same request.
      if (takes && takes !== secretFieldOf(row.kind, row.settings) && !secret) {
        throw new InputError(`${takes}: signing in another way needs its ${takes}`, [{ path: takes, message: 'required with the new settings.auth' }]);
      }
      if (secret) set.secretSealed = trackers.sealSecret(secret);
      // An authorization holds for the app, site and way of signing in it was given for.
      const signIn = (s: Record<string, unknown>) => JSON.stringify([s.auth, s.clientId, s.baseUrl, s.tenantId]);
      if (row.oauthSealed && (signIn(settings) !== signIn(row.settings) || (takes === 'clientSecret' && secret))) {
        set.oauthSealed = null;
        trackers.forgetTokens(id);
      }
      if (body.paused === true && !row.paused) Object.assign(set, { paused: true, pausedAt: now, pausedReason: 'Paused by an admin' });
      if (body.paused === false && row.paused) Object.assign(set, { paused: false, pausedAt: null, pausedReason: null, consecutiveFailures: 0 });
      await repo.update(id, set);
      // Calls that waited for the resume go out now.
      if (body.paused === false && row.paused) trackers.kick();
      return answerOf(id);
    }),

    implement(endpoints.trackers.remove, async ({ params: { id } }) => {
      await load(id);
      await repo.remove(id);
      return { success: true, message: 'Tracker deleted: its tasks stay in the tracker' };
    }),

    implement(endpoints.trackers.test, async ({ params: { id } }) => {
      return connectionTestOf(await trackers.test(await load(id)));
    }),

    implement(endpoints.trackers.authorize, async ({ params: { id }, auth }) => {
      const row = await load(id);
      if (row.settings.auth !== 'oauth' && row.settings.auth !== 'delegated') {
        const wanted = row.kind === 'planner' ? 'delegated' : 'oauth';
        throw new InputError(`${row.name} does not sign in with OAuth: set settings.auth to ${wanted} first`, [
          { path: 'settings.auth', message: `not ${wanted}` },
        ]);
      }
      try {
        return { url: await trackers.authorizeUrlOf(row, auth.user.id) };
      } catch (err) {
        if (!(err instanceof TrackerError)) throw err;
        const field = row.kind === 'planner' ? 'settings.tenantId' : 'clientSecret';
        throw new InputError(`${field}: ${err.message}`, [{ path: field, message: err.message }]);
      }
    }),

    implement(endpoints.trackers.oauthCallback, async ({ query, auth, res }) => {
      const back = (outcome: Record<string, string>) => res.redirect(303, `${TRACKERS_PAGE}&${new URLSearchParams(outcome).toString()}`);
      if (query.error || !query.code || !query.state) {
        const why = query.error_description || query.error || 'the tracker sent no authorization code';
        ctx.log.warn({ error: query.error, userId: auth.user.id }, 'tracker authorization refused');
        return back({ oauthError: `Not authorized: ${why}`.slice(0, 300) });
      }
      try {
        const row = await trackers.completeAuthorization(query.state, query.code, auth.user.id);
        return back({ authorized: String(row.id) });
      } catch (err) {
        if (!(err instanceof TrackerError)) throw err;
        ctx.log.warn({ err: err.message, userId: auth.user.id }, 'tracker authorization failed');
        return back({ oauthError: err.message.slice(0, 300) });
      }
    }),

    implement(endpoints.trackers.pull, async ({ params: { id } }) => {
      await load(id);
      return trackers.pull(id);
    }),

    implement(endpoints.trackers.attempts, async ({ params: { id } }) => {
      await load(id);
      return { attempts: await repo.attempts(id) };
    }),

    implement(endpoints.trackers.targets, async ({ auth }) => {
      const scope = await tenantScopeOf(ctx.db, auth);
      const targets: { id: number; name: string; kind: TrackerKind }[] = [];
      for (const target of await repo.active()) {
        const row = await repo.byId(target.id);
        if (row && (await mayUseTracker(ctx.db, row, scope))) targets.push({ ...target, kind: target.kind as TrackerKind });
      }
      return { targets };
    }),

    implement(endpoints.trackers.bulkTasks, async ({ body, auth }) => {
      const scope = await tenantScopeOf(ctx.db, auth);
      const tracker = await repo.byId(body.trackerId);
      if (!tracker || !(await mayUseTracker(ctx.db, tracker, scope))) {
        throw new InputError(`No tracker has id ${body.trackerId}`, [{ path: 'trackerId', message: 'not a tracker' }]);
      }
      const queued = await ctx.db.transaction(async (tx) => {
        const records: number[] = [];
        for (const [i, ref] of body.items.entries()) {
          try {
            const item = await findItem(tx, ref.itemType, ref.itemId, scope);
            records.push((await findRecord(tx, item, ref.tenant, scope, false, { now: ctx.clock.now() })).record.id);
          } catch (err) {
            if (err instanceof NotFoundError || err instanceof InputError) {
              throw new InputError(`items[${i}] (${ref.itemType} ${ref.itemId}): ${err.message}`, [{ path: `items.${i}`, message: err.message }]);
            }
            throw err;
          }
        }
        let count = 0;
        // In record order, so two bulk pushes lock the links in the same order.
        for (const recordId of [...new Set(records)].sort((a, b) => a - b)) {
          if ((await trackers.push(tx, tracker.id, recordId, false)).outboxId !== null) count++;
        }
        return count;
      });
      if (queued > 0) trackers.kick();
      return { queued };
    }),

    implement(endpoints.trackers.tasks, async ({ params: { itemType, itemId }, auth }) => {
      const scope = await tenantScopeOf(ctx.db, auth);
      const item = await findItem(ctx.db, itemType, itemId, scope);
      const rows = await repo.linksOfItem(item.id, scope);
      const targets = isModeratorOrAdmin(auth) ? await targetsFor(item.id, scope) : [];
      return {
        targets,
        tasks: rows.map((r) => taskOf(r.link, { name: r.trackerName, kind: r.kind }, r.tenantId)),
      };
    }),

    implement(endpoints.trackers.createTask, async ({ params: { itemType, itemId }, query, body, auth }) => {
      const scope = await tenantScopeOf(ctx.db, auth);
      const tracker = await repo.byId(body.trackerId);
      if (!tracker || !(await mayUseTracker(ctx.db, tracker, scope))) {
        throw new InputError(`No tracker has id ${body.trackerId}`, [{ path: 'trackerId', message: 'not a tracker' }]);
      }
      const pushed = await ctx.db.transaction(async (tx) => {
        const item = await findItem(tx, itemType, itemId, scope);
        const { record } = await findRecord(tx, item, query.tenant, scope, false, { now: ctx.clock.now() });
        return { ...(await trackers.push(tx, tracker.id, record.id, body.recreate)), tenantId: record.tenantId };
      });
      if (pushed.outboxId === null && pushed.link.status === 'deleted') {
        throw new ConflictError(
          `The task ${pushed.link.externalKey ?? ''} was deleted in ${tracker.name}: push with recreate to make it anew`.replace('  ', ' '),
        );
      }
      const existed = Boolean(pushed.link.externalId) && pushed.link.status !== 'deleted';
      // The call is made now when the tracker is not paused; past PUSH_WAIT_MS the answer is "queued".
      if (pushed.outboxId !== null && !tracker.paused) {
        const call = trackers.deliverNow([pushed.outboxId]);
        await Promise.race([call, new Promise((resolve) => setTimeout(resolve, PUSH_WAIT_MS).unref())]);
      }
      const link = (await repo.link(pushed.link.id)) ?? pushed.link;
      const task = taskOf(link, tracker, pushed.tenantId);
      if (task.status === 'failed') throw new UpstreamError(`${tracker.name} did not take the task: ${link.lastError ?? 'see the delivery log'}`);
      if (task.status === 'queued') return Reply.status(202, task);
      return Reply.status(existed ? 200 : 201, task);
    }),
  ];
}
