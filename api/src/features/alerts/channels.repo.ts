import { and, count, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AlertChannel, AlertScope } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { alertChannels, users } from '../../db/schema/index.js';

export type ChannelRow = typeof alertChannels.$inferSelect;
export type ChannelWithOwner = ChannelRow & { ownerEmail: string; ownerFirstName: string | null };

/** Who is asking: the user and whether they may manage the organisation's channels and searches. */
export interface Viewer {
  userId: number;
  isAdmin: boolean;
}

/** The rows a viewer may see and change: their own personal ones, and the organisation's for admins. */
export const visibleTo = (v: Viewer, table: { scope: PgColumn; ownerUserId: PgColumn }): SQL =>
  v.isAdmin
    ? (or(and(eq(table.scope, 'personal'), eq(table.ownerUserId, v.userId)), eq(table.scope, 'organisation')) ?? sql`false`)
    : (and(eq(table.scope, 'personal'), eq(table.ownerUserId, v.userId)) ?? sql`false`);

export function toAlertChannel(row: ChannelWithOwner): AlertChannel {
  return {
    id: row.id,
    scope: row.scope,
    kind: row.kind,
    name: row.name,
    target: row.kind === 'email' ? row.ownerEmail : (row.urlHint ?? ''),
    paused: row.paused,
    pausedReason: row.pausedReason,
    consecutiveFailures: row.consecutiveFailures,
    triageNotices: row.triageNotices,
    createdAt: row.createdAt.toISOString(),
    lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
  };
}

const withOwner = { ownerEmail: users.email, ownerFirstName: users.firstName };

export function createChannelsRepo(db: DbOrTx) {
  const select = () =>
    db
      .select({ channel: alertChannels, ...withOwner })
      .from(alertChannels)
      .innerJoin(users, eq(users.id, alertChannels.ownerUserId));
  const flat = (r: { channel: ChannelRow; ownerEmail: string; ownerFirstName: string | null }): ChannelWithOwner => ({
    ...r.channel,
    ownerEmail: r.ownerEmail,
    ownerFirstName: r.ownerFirstName,
  });

  return {
    async listVisible(v: Viewer): Promise<ChannelWithOwner[]> {
      const rows = await select().where(visibleTo(v, alertChannels)).orderBy(desc(alertChannels.createdAt), desc(alertChannels.id));
      return rows.map(flat);
    },

    async findVisible(v: Viewer, id: number): Promise<ChannelWithOwner | null> {
      const [row] = await select().where(and(eq(alertChannels.id, id), visibleTo(v, alertChannels)));
      return row ? flat(row) : null;
    },

    async byId(id: number): Promise<ChannelWithOwner | null> {
      const [row] = await select().where(eq(alertChannels.id, id));
      return row ? flat(row) : null;
    },

    async count(scope: AlertScope, userId: number): Promise<number> {
      const where =
        scope === 'organisation' ? eq(alertChannels.scope, 'organisation') : and(eq(alertChannels.scope, 'personal'), eq(alertChannels.ownerUserId, userId));
      const [row] = await db.select({ n: count() }).from(alertChannels).where(where);
      return row?.n ?? 0;
    },

    async personalEmailChannel(userId: number): Promise<ChannelRow | null> {
      const [row] = await db
        .select()
        .from(alertChannels)
        .where(and(eq(alertChannels.scope, 'personal'), eq(alertChannels.ownerUserId, userId), eq(alertChannels.kind, 'email')))
        .limit(1);
      return row ?? null;
    },

    /** A user's channels that take their triage notices now: personal Teams, Slack and webhook channels, not paused. */
    async triageChannelsOf(userId: number): Promise<ChannelWithOwner[]> {
      const rows = await select()
        .where(
          and(
            eq(alertChannels.scope, 'personal'),
            eq(alertChannels.ownerUserId, userId),
            ne(alertChannels.kind, 'email'),
            eq(alertChannels.triageNotices, true),
            eq(alertChannels.paused, false),
          ),
        )
        .orderBy(alertChannels.id);
      return rows.map(flat);
    },

    async insert(values: typeof alertChannels.$inferInsert): Promise<ChannelRow> {
      return returned((await db.insert(alertChannels).values(values).returning())[0]);
    },

    async update(id: number, set: Partial<typeof alertChannels.$inferInsert>): Promise<void> {
      await db.update(alertChannels).set(set).where(eq(alertChannels.id, id));
    },

    async remove(id: number): Promise<void> {
      await db.delete(alertChannels).where(eq(alertChannels.id, id));
    },
  };
}
