import {
  changeHealthSummary,
  endpoints,
  ROLE_NAMES,
  TRIAGE_MAIL_KIND_LABELS,
  TRIAGE_MAIL_KINDS,
  TRIAGE_OWN_MAIL_KINDS,
  type BodyOf,
  type TriageMailKind,
  type TriageQueueResponse,
  type TriageRule,
} from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { hasRole, isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import { implement, Reply, type EndpointImplementation, implementCallerRead } from '../../http/endpoints.js';
import { InputError, NotFoundError } from '../../lib/errors.js';
import { toUnifiedItem } from '../items/item-mapper.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createTriageNotificationsRepo } from './triage-notifications.repo.js';
import { createTriageReportsRepo } from './triage-reports.repo.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import { createTriageRepo } from './triage.repo.js';
import { createTriageStartRepo } from './triage-start.repo.js';
import { applyTriageRules } from './triage-rules.js';
import { createTriageRulesRepo, type TriageRuleRow } from './triage-rules.repo.js';

type TriageRuleBody = BodyOf<typeof endpoints.triage.createRule>;
import { toTriageRecord } from './triage-records.js';
import { createTriageService } from './triage.service.js';

/** The most people one type-ahead answer lists. */
const PEOPLE_LIMIT = 20;
/** How many days of change health the trend draws. */
const HEALTH_TREND_DAYS = 90;

/**
 * Triage: the record of an item (state, owner, due date, priority), its conversation, the queue views and bulk
 * changes. Every handler reads with the caller's tenant scope, so a private tenant's record is as invisible as its
 * post; the access rows of the endpoint table keep guests out before anything here runs.
 */
export function createTriageEndpoints(ctx: AppContext): EndpointImplementation[] {
  const service = createTriageService({
    db: ctx.db,
    clock: ctx.clock,
    notify: () => ctx.services.triageMail.deliverSoon(),
    tasksQueued: () => ctx.services.trackers.kick(),
    trackers: ctx.services.trackerPort,
  });

  /** The triage mails a user may get: their own items' for everyone, the weekly change-health report for admins. */
  const kindsFor = (auth: RequestAuth): TriageMailKind[] => (hasRole(auth, ROLE_NAMES.admin) ? [...TRIAGE_MAIL_KINDS] : [...TRIAGE_OWN_MAIL_KINDS]);
  async function mailSettings(auth: RequestAuth) {
    const off = await createTriageNotificationsRepo(ctx.db).optedOut(auth.user.id);
    return { kinds: kindsFor(auth).map((kind) => ({ kind, label: TRIAGE_MAIL_KIND_LABELS[kind], enabled: !off.has(kind) })) };
  }

  const rules = createTriageRulesRepo(ctx.db);
  /** A rule as answered: its owner named. */
  async function ruleAnswer(row: TriageRuleRow): Promise<TriageRule> {
    const owner = row.setOwnerId !== null ? await createTriageRepo(ctx.db).person(row.setOwnerId) : null;
    return {
      id: row.id,
      name: row.name,
      position: row.position,
      enabled: row.enabled,
      query: row.query,
      setOwner: owner,
      setState: row.setState as TriageRule['setState'],
      setPriority: row.setPriority as TriageRule['setPriority'],
      createTaskIn: row.createTaskIn !== null ? await trackerName(row.createTaskIn) : null,
      updatedAt: row.updatedAt.toISOString(),
    };
  }
  const allRules = async () => ({ rules: await Promise.all((await rules.list()).map(ruleAnswer)) });
  const startAnswer = async () => {
    const start = createTriageStartRepo(ctx.db);
    return { settings: await start.settings(), lines: await start.lines() };
  };
  async function trackerName(id: number) {
    const name = await ctx.services.trackerPort.nameOf(ctx.db, id);
    return name !== null ? { id, name } : null;
  }
  /** The rule's fields as stored; an owner who is not a user, or a tracker that does not exist, is refused. */
  async function ruleValues(body: TriageRuleBody) {
    if (body.createTaskIn !== null && !(await trackerName(body.createTaskIn))) {
      throw new InputError(`No tracker has id ${body.createTaskIn}`, [{ path: 'createTaskIn', message: `No tracker has id ${body.createTaskIn}` }]);
    }
    if (body.setOwnerId !== null && !(await createTriageRepo(ctx.db).existingUsers([body.setOwnerId])).has(body.setOwnerId)) {
      throw new InputError(`No user has id ${body.setOwnerId}`, [{ path: 'setOwnerId', message: `No user has id ${body.setOwnerId}` }]);
    }
    return {
      name: body.name,
      enabled: body.enabled,
      query: body.query as Record<string, unknown>,
      setOwnerId: body.setOwnerId,
      setState: body.setState,
      setPriority: body.setPriority,
      createTaskIn: body.createTaskIn,
    };
  }

  return [
    implement(endpoints.triage.rules, allRules),
    implement(endpoints.triage.createRule, async ({ body }) =>
      Reply.status(201, await ruleAnswer(await rules.insert(await ruleValues(body), ctx.clock.now()))),
    ),
    implement(endpoints.triage.updateRule, async ({ params, body }) => {
      const row = await rules.update(params.ruleId, await ruleValues(body), ctx.clock.now());
      if (!row) throw new NotFoundError(`No triage rule ${params.ruleId}`);
      return ruleAnswer(row);
    }),
    implement(endpoints.triage.deleteRule, async ({ params }) => {
      if (!(await rules.remove(params.ruleId))) throw new NotFoundError(`No triage rule ${params.ruleId}`);
      return allRules();
    }),
    implement(endpoints.triage.orderRules, async ({ body }) => {
      const ids = (await rules.list()).map((r) => r.id);
      const given = new Set(body.ids);
      if (given.size !== body.ids.length || given.size !== ids.length || !ids.every((id) => given.has(id))) {
        throw new InputError('ids must list every rule once', [{ path: 'ids', message: `ids must list every rule once: ${ids.join(', ')}` }]);
      }
      await rules.reorder(body.ids);
      return allRules();
    }),
    implement(endpoints.triage.runRules, async () => {
      const changed = await ctx.db.transaction((tx) => applyTriageRules(tx, 'open', ctx.clock.now(), { trackers: ctx.services.trackerPort, log: ctx.log }));
      ctx.services.triageMail.deliverSoon();
      return { changed };
    }),
    implement(endpoints.triage.start, startAnswer),
    implement(endpoints.triage.moveStart, async ({ body, auth }) => {
      const now = ctx.clock.now();
      if (body.from > now.toISOString().slice(0, 10)) {
        throw new InputError('from must not be after today', [{ path: 'from', message: 'The starting line cannot be after today' }]);
      }
      if (body.tenantId !== null && !(await createTenantsRepo(ctx.db).get(body.tenantId))) {
        throw new InputError(`No tenant has id ${body.tenantId}`, [{ path: 'tenantId', message: `No tenant has id ${body.tenantId}` }]);
      }
      const moved = await ctx.db.transaction((tx) => createTriageStartRepo(tx).move(body.tenantId, body.from, now, !body.preview));
      if (!body.preview) ctx.log.info({ tenant: body.tenantId, from: body.from, by: auth.user.email, ...moved }, 'triage starting line moved');
      return { ...moved, applied: !body.preview };
    }),
    implement(endpoints.triage.updateSettings, async ({ body, auth }) => {
      const now = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        const start = createTriageStartRepo(tx);
        const before = await start.settings();
        const after = { ...before, ...body };
        await start.saveSettings(after, now);
        // Every upcoming roadmap item opens when the setting turns on (records opened before stay when it turns off).
        if (after.openUpcomingRoadmap && !before.openUpcomingRoadmap) {
          const opened = await createTriageRepo(tx).openRecords({ itemIds: await start.upcomingRoadmapWithoutRecord() }, now);
          await applyTriageRules(tx, opened, now, { trackers: ctx.services.trackerPort, log: ctx.log });
        }
        ctx.log.info({ before, after, by: auth.user.email }, 'triage settings changed');
      });
      ctx.services.triageMail.deliverSoon();
      return startAnswer();
    }),
    implement(endpoints.triage.open, async ({ params, auth }) => {
      return service.open(params.itemType, params.itemId, auth, await tenantScopeOf(ctx.db, auth));
    }),
    implement(endpoints.triage.queue, async ({ query, auth }): Promise<TriageQueueResponse> => {
      const { view, page, limit, ...filters } = query;
      const scope = await tenantScopeOf(ctx.db, auth);
      const repo = createTriageRepo(ctx.db);
      const { recordIds, total } = await repo.queue({
        filters: { ...filters, ...(scope ? { tenantScope: scope } : {}) },
        view,
        userId: auth.user.id,
        now: ctx.clock.now(),
        page,
        limit,
      });
      const records = await repo.recordsById(recordIds);
      const itemsById = await repo.itemsById([...new Set(records.map((r) => r.itemId))]);
      const includeNotes = isModeratorOrAdmin(auth);
      return {
        rows: records.flatMap((record) => {
          const item = itemsById.get(record.itemId);
          return item ? [{ item: toUnifiedItem(item, { includeNotes }), triage: toTriageRecord(item, record, auth, ctx.clock.now()) }] : [];
        }),
        total,
        totalPages: Math.ceil(total / limit),
        page,
      };
    }),
    implement(endpoints.triage.counts, async ({ auth }) => {
      return createTriageRepo(ctx.db).counts(auth.user.id, await tenantScopeOf(ctx.db, auth), ctx.clock.now());
    }),
    implement(endpoints.triage.people, async ({ query }) => ({
      people: await createTriageRepo(ctx.db).people(query.search, PEOPLE_LIMIT, query.tenant),
    })),
    implementCallerRead(endpoints.triage.mailSettings, (auth) => mailSettings(auth)),
    implement(endpoints.triage.updateMailSettings, async ({ auth, body }) => {
      const kinds = kindsFor(auth);
      const foreign = body.enabled.filter((k) => !kinds.includes(k));
      if (foreign.length)
        throw new InputError(`enabled: ${foreign.join(', ')} is not a mail you get`, [
          { path: 'enabled', message: `${foreign.join(', ')} is not a mail you get` },
        ]);
      const repo = createTriageNotificationsRepo(ctx.db);
      const on = new Set(body.enabled);
      await repo.optIn(auth.user.id, [...on]);
      await repo.optOut(
        auth.user.id,
        kinds.filter((k) => !on.has(k)),
        ctx.clock.now(),
      );
      return mailSettings(auth);
    }),
    implement(endpoints.triage.health, async ({ query, auth }) => {
      const scope = await tenantScopeOf(ctx.db, auth);
      const visible = (await createTenantsRepo(ctx.db).visible(scope, { includeRemoved: true })).map((t) => t.id);
      if (typeof query.tenant === 'number' && !visible.includes(query.tenant)) {
        throw new NotFoundError(`No tenant ${query.tenant} you may see`);
      }
      const keys = query.tenant === 'all' ? (scope === 'all' ? 'all' : [0, ...visible]) : [query.tenant === 'none' ? 0 : query.tenant];
      const reports = createTriageReportsRepo(ctx.db);
      const now = ctx.clock.now();
      const [current, series] = await Promise.all([reports.health(query.tenant, scope, now), reports.healthSeries(keys, HEALTH_TREND_DAYS, now)]);
      return { ...changeHealthSummary(current.sums, current.records), open: current.open, trend: series };
    }),
    implement(endpoints.triage.analytics, async ({ query }) => {
      const tenant = query.tenant === 'none' ? 0 : query.tenant;
      const [tenants, days] = await Promise.all([
        createTenantsRepo(ctx.db).visible('all', { includeRemoved: false }),
        createTriageReportsRepo(ctx.db).series(tenant, query.days, ctx.clock.now()),
      ]);
      return { tenants: tenants.map((t) => ({ id: t.id, name: t.name })), days };
    }),
    implement(endpoints.triage.bulk, async ({ body, auth }) => {
      return { updated: await service.bulk(body, auth, await tenantScopeOf(ctx.db, auth)) };
    }),
    implement(endpoints.triage.get, async ({ params, query, auth }) => {
      return service.get(params.itemType, params.itemId, query.tenant, auth, await tenantScopeOf(ctx.db, auth));
    }),
    implement(endpoints.triage.update, async ({ params, query, body, auth }) => {
      return service.update(params.itemType, params.itemId, query.tenant, body, auth, await tenantScopeOf(ctx.db, auth));
    }),
    implement(endpoints.triage.suggestion, async ({ params, query, auth }) => {
      return service.suggest(params.itemType, params.itemId, query.tenant, await tenantScopeOf(ctx.db, auth), { config: ctx.config, log: ctx.log });
    }),
    implement(endpoints.triage.comments, async ({ params, query, auth }) => {
      return { comments: await service.comments(params.itemType, params.itemId, query.tenant, auth, await tenantScopeOf(ctx.db, auth)) };
    }),
    implement(endpoints.triage.addComment, async ({ params, query, body, auth }) => {
      return service.addComment(params.itemType, params.itemId, query.tenant, body.body, auth, await tenantScopeOf(ctx.db, auth));
    }),
    implement(endpoints.triage.editComment, async ({ params, body, auth }) => {
      return service.changeComment(params.itemType, params.itemId, params.commentId, { body: body.body }, auth, await tenantScopeOf(ctx.db, auth));
    }),
    implement(endpoints.triage.deleteComment, async ({ params, auth }) => {
      return service.changeComment(params.itemType, params.itemId, params.commentId, 'delete', auth, await tenantScopeOf(ctx.db, auth));
    }),
  ];
}
