import type { TriageComment, TriageItemType } from '@radar/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { NotAllowedError, NotFoundError } from '../../lib/errors.js';
import type { TenantScope } from '../items/item-query.js';
import { createTriageNotificationsRepo, type NewTriageEvent } from './triage-notifications.repo.js';
import { activityItemType, editRight, findItem, findRecord, recordTenant } from './triage-records.js';
import { createTriageRepo, type TriageCommentRow, type TriageRecordRow, type TriageRepo } from './triage.repo.js';
import type { TriagePersonRow } from './triage-users.repo.js';

/** `@name@example.com` in a comment: the addresses it mentions, lower-cased, once each. */
export function mentionedEmails(body: string): string[] {
  const found = body.matchAll(/(?:^|[^\w.+-])@([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/g);
  return [...new Set([...found].map((m) => (m[1] ?? '').replace(/\.+$/, '').toLowerCase()))].filter(Boolean);
}

function mentionEvents(recordId: number, commentId: number, mentioned: TriagePersonRow[], by: number): NewTriageEvent[] {
  return mentioned
    .filter((m) => m.id !== by)
    .map((m) => ({ userId: m.id, kind: 'mentioned' as const, recordId, actorId: by, commentId, dedupeKey: `mentioned:${commentId}:${m.id}` }));
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

/**
 * The conversation on a record: reading it, commenting (moderators, admins and the record's owner) and an author's
 * edits and deletions, each with its activity-log line; whoever a comment newly mentions is told once it has committed.
 */
export function createTriageComments(deps: { db: Db; clock: Clock; notify: () => void }) {
  const { db, clock, notify } = deps;
  return {
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
              itemType: activityItemType(itemType),
              tenant: recordTenant(record),
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
                itemType: activityItemType(itemType),
                tenant: recordTenant(record),
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
