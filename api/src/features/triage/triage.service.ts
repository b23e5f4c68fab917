import {
  licenceStatusOf,
  TRIAGE_STATE_LABELS,
  type TriageItemType,
  type TriageRecordResponse,
  type TriageSuggestion,
  type TriageUpdate,
} from '@radar/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import type { ItemRow } from '../../db/schema/index.js';
import type { RequestAuth } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { InputError, NotFoundError } from '../../lib/errors.js';
import type { TenantScope } from '../items/item-query.js';
import { createTriageNotificationsRepo, type NewTriageEvent } from './triage-notifications.repo.js';
import { suggestTriage } from './triage-suggest.js';
import { licenceOverrides } from '../admin/product-mappings/product-mappings.repo.js';
import type { TrackerPort } from './tracker-port.js';
import { activityItemType, findItem, findRecord, recordTenant, toTriageRecord } from './triage-records.js';
import { assignmentEvents, planTriageChange } from './triage-change.js';
import { createTriageComments } from './triage-comments.js';
import { createTriageRepo, type TriageRecordRow } from './triage.repo.js';

/**
 * The triage rules: which record a request means, who may change what, what a change writes and logs. Every change
 * runs in one transaction with its activity-log lines.
 */
export function createTriageService(deps: { db: Db; clock: Clock; trackers: TrackerPort; notify?: () => void; tasksQueued?: () => void }) {
  const { db, clock } = deps;
  /** After a change whose records have tasks in trackers has committed: the updates are made now. */
  const tasksQueued = (count: number) => {
    if (count > 0) deps.tasksQueued?.();
  };
  /** After a change that gave someone an item or mentioned them has committed: their mail may go out now. */
  const notify = () => deps.notify?.();

  /** The record as answered, with whether the tenants license the item (the record's own tenant, else every visible one). */
  async function response(
    tx: DbOrTx,
    item: ItemRow,
    found: { record: TriageRecordRow; all: TriageRecordRow[] },
    auth: RequestAuth,
    scope: TenantScope | undefined,
  ): Promise<TriageRecordResponse> {
    const tenants = (await createTriageRepo(tx).tenantLicences(scope)).filter((t) => found.record.tenantId === null || t.id === found.record.tenantId);
    return {
      ...toTriageRecord(item, found.record, auth, clock.now()),
      tenants: found.all.flatMap((r) => (r.tenantId !== null ? [{ id: r.tenantId, name: r.tenantName ?? `Tenant ${r.tenantId}` }] : [])),
      licence: licenceStatusOf(item.products, tenants, (await licenceOverrides(tx)).keys()),
    };
  }

  return {
    async get(itemType: TriageItemType, itemId: string, tenant: number | undefined, auth: RequestAuth, scope: TenantScope | undefined) {
      return db.transaction(async (tx) => {
        const item = await findItem(tx, itemType, itemId, scope);
        return response(tx, item, await findRecord(tx, item, tenant, scope, true, { now: clock.now(), read: true }), auth, scope);
      });
    },

    /** "Triage this": opens the record of an item that has none (a roadmap item nobody opened); moderators and admins. */
    async open(itemType: TriageItemType, itemId: string, auth: RequestAuth, scope: TenantScope | undefined) {
      return db.transaction(async (tx) => {
        const item = await findItem(tx, itemType, itemId, scope);
        const now = clock.now();
        const opened = await createTriageRepo(tx).openRecords({ itemIds: [item.id] }, now, 'request');
        const found = await findRecord(tx, item, undefined, scope, true, { now, read: true });
        if (opened.length > 0) {
          await createTriageRepo(tx).logChanges(
            [
              {
                item,
                itemType: activityItemType(itemType),
                tenant: null,
                actionType: 'triage_changed',
                details: { changes: [{ field: 'state', before: 'Not in triage', after: TRIAGE_STATE_LABELS.new }] },
              },
            ],
            auth.user,
            now,
          );
        }
        return response(tx, item, found, auth, scope);
      });
    },

    async update(
      itemType: TriageItemType,
      itemId: string,
      tenant: number | undefined,
      change: TriageUpdate,
      auth: RequestAuth,
      scope: TenantScope | undefined,
    ) {
      let queued = 0;
      const answer = await db.transaction(async (tx) => {
        const repo = createTriageRepo(tx);
        const item = await findItem(tx, itemType, itemId, scope);
        const { record } = await findRecord(tx, item, tenant, scope, false, { now: clock.now() });
        await repo.lock([record.id]);
        const [current] = await repo.recordsById([record.id]);
        if (!current) throw new NotFoundError(`${item.externalId} has no triage record`);
        const { set, changes } = await planTriageChange(repo, clock, item, current, change, auth, item.externalId);
        if (changes.length > 0) {
          const now = clock.now();
          await repo.update(current.id, set, auth.user.id, now);
          await repo.logChanges(
            [{ item, itemType: activityItemType(itemType), tenant: recordTenant(current), actionType: 'triage_changed', details: { changes } }],
            auth.user,
            now,
          );
          await createTriageNotificationsRepo(tx).add(assignmentEvents(current.id, set, auth.user.id, now), now);
          // The record's tasks in trackers follow what changed here.
          queued = await deps.trackers.queueUpdates(tx, [current.id], now);
          // A post made Relevant or In progress opens the roadmap items it announces.
          if (set.state !== undefined) await repo.openAnnounced([current.id], now);
        }
        return response(tx, item, await findRecord(tx, item, current.tenantId ?? undefined, scope, false, { now: clock.now(), read: true }), auth, scope);
      });
      notify();
      tasksQueued(queued);
      return answer;
    },

    /** Applies one change to every item listed: all of them, or (on the first refusal) none. */
    async bulk(
      body: { items: { itemType: TriageItemType; itemId: string; tenant?: number }[]; set: TriageUpdate },
      auth: RequestAuth,
      scope: TenantScope | undefined,
    ): Promise<number> {
      let queued = 0;
      const updated = await db.transaction(async (tx) => {
        const repo = createTriageRepo(tx);
        const targets: { item: ItemRow; itemType: TriageItemType; record: TriageRecordRow; label: string }[] = [];
        for (const [i, ref] of body.items.entries()) {
          const label = `items[${i}] (${ref.itemType} ${ref.itemId})`;
          try {
            const item = await findItem(tx, ref.itemType, ref.itemId, scope);
            const { record } = await findRecord(tx, item, ref.tenant, scope, false, { now: clock.now() });
            targets.push({ item, itemType: ref.itemType, record, label });
          } catch (err) {
            if (err instanceof NotFoundError || err instanceof InputError) {
              throw new InputError(`${label}: ${err.message}`, [{ path: `items.${i}`, message: err.message }]);
            }
            throw err;
          }
        }
        const ids = [...new Set(targets.map((t) => t.record.id))];
        if (ids.length !== targets.length)
          throw new InputError('items lists the same record twice', [{ path: 'items', message: 'items lists the same record twice' }]);
        await repo.lock(ids);
        const current = new Map((await repo.recordsById(ids)).map((r) => [r.id, r]));
        const now = clock.now();
        const planned = [];
        for (const t of targets) {
          const record = current.get(t.record.id);
          if (!record) throw new NotFoundError(`${t.label}: no triage record`);
          planned.push({ ...t, record, ...(await planTriageChange(repo, clock, t.item, record, body.set, auth, t.label)) });
        }
        let count = 0;
        const events: NewTriageEvent[] = [];
        for (const p of planned) {
          if (p.changes.length === 0) continue;
          await repo.update(p.record.id, p.set, auth.user.id, now);
          events.push(...assignmentEvents(p.record.id, p.set, auth.user.id, now));
          count++;
        }
        queued = await deps.trackers.queueUpdates(
          tx,
          planned.filter((p) => p.changes.length > 0).map((p) => p.record.id),
          now,
        );
        await repo.openAnnounced(
          planned.filter((p) => p.set.state !== undefined).map((p) => p.record.id),
          now,
        );
        await createTriageNotificationsRepo(tx).add(events, now);
        await repo.logChanges(
          planned
            .filter((p) => p.changes.length > 0)
            .map((p) => ({
              item: p.item,
              itemType: activityItemType(p.itemType),
              tenant: recordTenant(p.record),
              actionType: 'triage_changed',
              details: { changes: p.changes, bulk: true },
            })),
          auth.user,
          now,
        );
        return count;
      });
      notify();
      tasksQueued(queued);
      return updated;
    },

    /** A suggested triage for the record (moderators and admins), nothing written. */
    async suggest(
      itemType: TriageItemType,
      itemId: string,
      tenant: number | undefined,
      scope: TenantScope | undefined,
      ai: Parameters<typeof suggestTriage>[1],
    ): Promise<TriageSuggestion> {
      return db.transaction(async (tx) => {
        const item = await findItem(tx, itemType, itemId, scope);
        const { record } = await findRecord(tx, item, tenant, scope, true, { now: clock.now(), read: true });
        return suggestTriage(tx, ai, item, record, clock.now());
      });
    },
    ...createTriageComments({ db, clock, notify }),
  };
}

export type TriageService = ReturnType<typeof createTriageService>;
