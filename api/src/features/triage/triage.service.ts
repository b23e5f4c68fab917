import {
  licenceStatusOf,
  TRIAGE_STATE_LABELS,
  type TriageComment,
  type TriageItemType,
  type TriageRecordResponse,
  type TriageSuggestion,
  type TriageUpdate,
} from '@radar/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import type { ItemRow } from '../../db/schema/index.js';
import { isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { InputError, NotAllowedError, NotFoundError } from '../../lib/errors.js';
import type { TenantScope } from '../items/item-query.js';
import { createTriageNotificationsRepo, type NewTriageEvent } from './triage-notifications.repo.js';
import { suggestTriage } from './triage-suggest.js';
import { licenceOverrides } from '../admin/product-mappings/product-mappings.repo.js';
import type { TrackerPort } from './tracker-port.js';
import { editRight, findItem, findRecord, toTriageRecord } from './triage-records.js';
import { createTriageRepo, type FieldChange, type TriageCommentRow, type TriagePersonRow, type TriageRecordRow, type TriageRepo } from './triage.repo.js';

/** The activity log's item type of each triage item type. */
const ACTIVITY_ITEM_TYPES = { roadmap: 'roadmap', 'message-center': 'message_center', 'service-health': 'service_health' } as const;
/** `@name@example.com` in a comment: the addresses it mentions, lower-cased, once each. */
export function mentionedEmails(body: string): string[] {
  const found = body.matchAll(/(?:^|[^\w.+-])@([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/g);
  return [...new Set([...found].map((m) => (m[1] ?? '').replace(/\.+$/, '').toLowerCase()))].filter(Boolean);
}

const dayOf = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

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

  /** The mail events of a change: the new owner is told (unless they gave it to themselves). */
  function assignmentEvents(recordId: number, set: { ownerId?: number | null }, by: number, now: Date): NewTriageEvent[] {
    if (set.ownerId === undefined || set.ownerId === null || set.ownerId === by) return [];
    return [{ userId: set.ownerId, kind: 'assigned', recordId, actorId: by, dedupeKey: `assigned:${recordId}:${set.ownerId}:${now.getTime()}` }];
  }

  function mentionEvents(recordId: number, commentId: number, mentioned: TriagePersonRow[], by: number): NewTriageEvent[] {
    return mentioned
      .filter((m) => m.id !== by)
      .map((m) => ({ userId: m.id, kind: 'mentioned' as const, recordId, actorId: by, commentId, dedupeKey: `mentioned:${commentId}:${m.id}` }));
  }

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

  /**
   * Checks one change and returns what it moves (nothing when every field sent already has its value). Owners may
   * change only the state; a due date before the item existed, or an owner who is not a user, is refused.
   */
  async function planChange(
    repo: TriageRepo,
    item: ItemRow,
    record: TriageRecordRow,
    change: TriageUpdate,
    auth: RequestAuth,
    label: string,
  ): Promise<{ set: Parameters<TriageRepo['update']>[1]; changes: FieldChange[] }> {
    const right = editRight(auth, record);
    const set: Parameters<TriageRepo['update']>[1] = {};
    const changes: FieldChange[] = [];
    const reset = new Set(change.reset ?? []);
    if (change.state !== undefined && (change.state !== record.state || record.closedReason !== null)) {
      set.state = change.state;
      set.doneAt = change.state === 'done' ? clock.now() : null;
      // Opened again from before tracking: tracked, and so overdue, from today.
      if (record.closedReason !== null && change.state !== 'done') set.openedOn = clock.now().toISOString().slice(0, 10);
      changes.push({ field: 'state', before: TRIAGE_STATE_LABELS[record.state], after: TRIAGE_STATE_LABELS[change.state] });
    }
    if (change.ownerId !== undefined && change.ownerId !== record.ownerId) {
      if (change.ownerId !== null && !(await repo.existingUsers([change.ownerId])).has(change.ownerId)) {
        throw new InputError(`${label}: no user has id ${change.ownerId}`, [{ path: 'ownerId', message: `No user has id ${change.ownerId}` }]);
      }
      const owner = change.ownerId === null ? null : await repo.person(change.ownerId);
      if (owner && !(await repo.usersSeeing(record.tenantId, [owner.id])).has(owner.id)) {
        const message = `${owner.email} may not see ${record.tenantName ?? `tenant ${record.tenantId}`}'s posts: an admin must grant them the tenant first`;
        throw new InputError(`${label}: ${message}`, [{ path: 'ownerId', message }]);
      }
      set.ownerId = change.ownerId;
      changes.push({ field: 'owner', before: record.ownerEmail, after: owner?.email ?? null });
      // Giving someone a record closed before tracking is deciding it is work after all: it opens, tracked from today.
      if (change.ownerId !== null && record.closedReason !== null && change.state === undefined) {
        Object.assign(set, { state: 'new', doneAt: null, openedOn: clock.now().toISOString().slice(0, 10) });
        changes.push({ field: 'state', before: TRIAGE_STATE_LABELS[record.state], after: TRIAGE_STATE_LABELS.new });
      }
    }
    if (reset.has('dueDate') || reset.has('priority')) {
      const defaults = await repo.defaultsOf(record.id);
      if (reset.has('dueDate') && (record.dueSource === 'manual' || record.dueDate !== defaults.dueDate)) {
        Object.assign(set, { dueDate: defaults.dueDate, dueSource: defaults.dueSource });
        changes.push({ field: 'dueDate', before: record.dueDate, after: defaults.dueDate });
      }
      if (reset.has('priority') && (record.prioritySource !== defaults.prioritySource || record.priority !== defaults.priority)) {
        Object.assign(set, { priority: defaults.priority, prioritySource: defaults.prioritySource });
        changes.push({ field: 'priority', before: record.priority, after: defaults.priority });
      }
    }
    if (change.dueDate !== undefined && !reset.has('dueDate') && change.dueDate !== record.dueDate) {
      const existed = dayOf(item.createdDate) ?? dayOf(item.firstSeenAt);
      if (change.dueDate !== null && existed && change.dueDate < existed) {
        throw new InputError(`${label}: the due date cannot be before the item existed (${existed})`, [
          { path: 'dueDate', message: `dueDate must not be before ${existed}, when the item was published` },
        ]);
      }
      Object.assign(set, { dueDate: change.dueDate, dueSource: 'manual' });
      changes.push({ field: 'dueDate', before: record.dueDate, after: change.dueDate });
    }
    if (change.priority !== undefined && !reset.has('priority') && change.priority !== record.priority) {
      Object.assign(set, { priority: change.priority, prioritySource: 'manual' });
      changes.push({ field: 'priority', before: record.priority, after: change.priority });
    }
    if (changes.length > 0 && right === 'none') {
      throw new NotAllowedError(`${label}: only its owner, a moderator or an admin may change its triage`);
    }
    if (right === 'state' && changes.some((c) => c.field !== 'state')) {
      throw new NotAllowedError(`${label}: as its owner you may change the state; the owner, due date and priority are set by moderators and admins`);
    }
    return { set, changes };
  }

  function toComment(row: TriageCommentRow, people: Map<number, TriagePersonRow>, auth: RequestAuth): TriageComment {
    return {
      id: row.id,
      author: row.authorId !== null ? (people.get(row.authorId) ?? null) : null,
      body: row.deletedAt ? '' : row.body,
      history: row.deletedAt ? [] : row.history,
      createdAt: row.createdAt.toISOString(),
      editedAt: row.editedAt?.toISOString() ?? null,
      deletedAt: row.deletedAt?.toISOString() ?? null,
      mentions: row.deletedAt ? [] : row.mentions.flatMap((id) => people.get(id) ?? []),
      mine: row.authorId === auth.user.id,
    };
  }

  async function commentsAnswer(repo: TriageRepo, rows: TriageCommentRow[], auth: RequestAuth): Promise<TriageComment[]> {
    const ids = new Set<number>();
    for (const r of rows) {
      if (r.authorId !== null) ids.add(r.authorId);
      for (const m of r.mentions) ids.add(m);
    }
    const people = await repo.peopleById([...ids]);
    return rows.map((r) => toComment(r, people, auth));
  }

  /**
   * The users a comment's @addresses name. Moderators and admins may name anyone; an owner (who cannot list the users)
   * only the people of the record (its owner, its commenters) and the moderators and admins, so a comment can never be
   * used to find out whether an address has an account. Either way only people who may see the record's tenant: an
   * address of someone who may not is left as plain text, neither recorded as a mention nor told.
   */
  async function mentionable(tx: DbOrTx, record: TriageRecordRow, auth: RequestAuth, emails: string[]): Promise<TriagePersonRow[]> {
    const repo = createTriageRepo(tx);
    const found = await repo.usersByEmail(emails);
    const seeing = await repo.usersSeeing(
      record.tenantId,
      found.map((p) => p.id),
    );
    const visible = found.filter((p) => seeing.has(p.id));
    if (isModeratorOrAdmin(auth)) return visible;
    const allowed = await repo.peopleOfRecord(record.id);
    return visible.filter((p) => allowed.has(p.id));
  }

  const activityType = (itemType: TriageItemType) => ACTIVITY_ITEM_TYPES[itemType];
  const tenantOf = (r: TriageRecordRow) => (r.tenantId !== null ? { id: r.tenantId, name: r.tenantName ?? `Tenant ${r.tenantId}` } : null);

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
                itemType: activityType(itemType),
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
        const { set, changes } = await planChange(repo, item, current, change, auth, item.externalId);
        if (changes.length > 0) {
          const now = clock.now();
          await repo.update(current.id, set, auth.user.id, now);
          await repo.logChanges(
            [{ item, itemType: activityType(itemType), tenant: tenantOf(current), actionType: 'triage_changed', details: { changes } }],
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
          planned.push({ ...t, record, ...(await planChange(repo, t.item, record, body.set, auth, t.label)) });
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
              itemType: activityType(p.itemType),
              tenant: tenantOf(p.record),
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

    async comments(itemType: TriageItemType, itemId: string, tenant: number | undefined, auth: RequestAuth, scope: TenantScope | undefined) {
      return db.transaction(async (tx) => {
        const repo = createTriageRepo(tx);
        const item = await findItem(tx, itemType, itemId, scope);
        const { record } = await findRecord(tx, item, tenant, scope, false, { now: clock.now(), read: true });
        return commentsAnswer(repo, await repo.comments(record.id), auth);
      });
    },

    /** Adds a comment (moderators, admins and the record's owner); the users it mentions are recorded with it. */
    async addComment(itemType: TriageItemType, itemId: string, tenant: number | undefined, body: string, auth: RequestAuth, scope: TenantScope | undefined) {
      const comment = await db.transaction(async (tx) => {
        const repo = createTriageRepo(tx);
        const item = await findItem(tx, itemType, itemId, scope);
        const { record } = await findRecord(tx, item, tenant, scope, false, { now: clock.now() });
        if (editRight(auth, record) === 'none')
          throw new NotAllowedError(`Only the owner of ${item.externalId}, a moderator or an admin may comment on its triage`);
        const mentioned = await mentionable(tx, record, auth, mentionedEmails(body));
        const now = clock.now();
        const row = await repo.addComment(
          record.id,
          auth.user.id,
          body,
          mentioned.map((m) => m.id),
          now,
        );
        await repo.logChanges(
          [
            {
              item,
              itemType: activityType(itemType),
              tenant: tenantOf(record),
              actionType: 'comment_added',
              details: { commentId: row.id, mentions: mentioned.map((m) => m.email) },
            },
          ],
          auth.user,
          now,
        );
        await createTriageNotificationsRepo(tx).add(mentionEvents(record.id, row.id, mentioned, auth.user.id), now);
        const [answer] = await commentsAnswer(repo, [row], auth);
        return answer as TriageComment;
      });
      notify();
      return comment;
    },

    /** Edits a comment (its author only), keeping what it said before in its history; or deletes it, its text then kept in the activity log alone. */
    async changeComment(
      itemType: TriageItemType,
      itemId: string,
      commentId: number,
      next: { body: string } | 'delete',
      auth: RequestAuth,
      scope: TenantScope | undefined,
    ): Promise<TriageComment> {
      const comment = await db.transaction(async (tx) => {
        const repo = createTriageRepo(tx);
        const item = await findItem(tx, itemType, itemId, scope);
        const records = await repo.recordsOf(item.id, scope);
        let found: { row: TriageCommentRow; record: TriageRecordRow } | null = null;
        for (const record of records) {
          const row = await repo.comment(record.id, commentId);
          if (row) found = { row, record };
        }
        if (!found || found.row.deletedAt) throw new NotFoundError(`No comment ${commentId} on ${item.externalId}`);
        const { row, record } = found;
        if (row.authorId !== auth.user.id) throw new NotAllowedError('Only its author may edit or delete a comment');
        const now = clock.now();
        const history = [...row.history, { body: row.body, until: now.toISOString() }];
        const mentioned = next === 'delete' ? [] : await mentionable(tx, record, auth, mentionedEmails(next.body));
        // A deleted comment keeps no text for readers: what it said, and said before, goes to the admins' activity log only.
        const saved =
          next === 'delete'
            ? await repo.saveComment(row.id, { deletedAt: now, body: '', history: [], mentions: [] })
            : next.body === row.body
              ? row
              : await repo.saveComment(row.id, { body: next.body, editedAt: now, history, mentions: mentioned.map((m) => m.id) });
        // Someone newly named in the edit is told; those named before were told already (one event per comment and user).
        if (saved !== row) await createTriageNotificationsRepo(tx).add(mentionEvents(record.id, row.id, mentioned, auth.user.id), now);
        if (saved !== row) {
          await repo.logChanges(
            [
              {
                item,
                itemType: activityType(itemType),
                tenant: tenantOf(record),
                actionType: next === 'delete' ? 'comment_deleted' : 'comment_edited',
                details: next === 'delete' ? { commentId, body: row.body, history: row.history } : { commentId },
              },
            ],
            auth.user,
            now,
          );
        }
        const [answer] = await commentsAnswer(repo, [saved], auth);
        return answer as TriageComment;
      });
      notify();
      return comment;
    },
  };
}

export type TriageService = ReturnType<typeof createTriageService>;
