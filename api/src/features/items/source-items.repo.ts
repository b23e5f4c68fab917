import { and, count, desc, eq, exists, gte, inArray, or, sql, type SQL } from 'drizzle-orm';
import { CHANGE_TYPE_DAYS, type ChangeTypeOption, type Source } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { itemHistory, items, messageRoadmapLinks, type ItemRow } from '../../db/schema/index.js';
import { changeSeenSql } from './tenant-own-fields.js';
import { tenantCondition, type TenantScope } from './item-query.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The caller's tenant scope as a condition (undefined: a guest's, public tenants only). */
const visibleTo = (scope: TenantScope | undefined): SQL | undefined => tenantCondition(scope) ?? undefined;

/** Reads behind the per-source routes (history, linked items, digest lists). Shared by roadmap and message routers. */
export function createSourceItemsRepo(db: DbOrTx) {
  return {
    /** The item with this id, in any case; a post of tenants the caller may not see (scope) is not found. */
    async find(source: Source, externalId: string, scope?: TenantScope): Promise<ItemRow | null> {
      const [row] = await db
        .select()
        .from(items)
        .where(and(eq(items.source, source), sql`lower(${items.externalId}) = lower(${externalId})`, visibleTo(scope)))
        .limit(1);
      return row ?? null;
    },

    /** Messages that name this roadmap id (RoadmapIds or a body link), newest first. */
    async messagesLinkedTo(roadmapExternalId: string, scope?: TenantScope): Promise<ItemRow[]> {
      const ids = db
        .select({ id: messageRoadmapLinks.messageItemId })
        .from(messageRoadmapLinks)
        .where(eq(messageRoadmapLinks.roadmapExternalId, roadmapExternalId));
      return db
        .select()
        .from(items)
        .where(and(inArray(items.id, ids), visibleTo(scope)))
        .orderBy(desc(items.createdDate), desc(items.id));
    },

    /** Roadmap items a message names; links to items not (yet) in the database resolve to nothing. */
    async roadmapLinkedFrom(messageRowId: number): Promise<ItemRow[]> {
      const ids = db.select({ id: messageRoadmapLinks.roadmapExternalId }).from(messageRoadmapLinks).where(eq(messageRoadmapLinks.messageItemId, messageRowId));
      return db
        .select()
        .from(items)
        .where(and(eq(items.source, 'roadmap'), inArray(items.externalId, ids)))
        .orderBy(desc(items.createdDate), desc(items.id));
    },

    /**
     * Active items of one source for the digest report: new_* = created (roadmap) / published (messages) in the
     * window; changed_* = a 'changed' history entry in the window. Several options are OR-ed.
     */
    async list(source: 'roadmap' | 'messages', q: { changeTypes?: ChangeTypeOption[]; page: number; limit: number; now: Date; scope?: TenantScope }) {
      const windows: SQL[] = [];
      for (const option of q.changeTypes ?? []) {
        const since = new Date(q.now.getTime() - CHANGE_TYPE_DAYS[option] * DAY_MS);
        if (option.startsWith('new')) windows.push(gte(items.createdDate, since));
        else
          windows.push(
            exists(
              db
                .select({ one: sql`1` })
                .from(itemHistory)
                .where(
                  and(
                    eq(itemHistory.itemId, items.id),
                    eq(itemHistory.changeType, 'changed'),
                    gte(itemHistory.changeDate, since),
                    changeSeenSql(q.scope, sql.raw('item_history')),
                  ),
                ),
            ),
          );
      }
      const where = and(eq(items.source, source), eq(items.isRemoved, false), windows.length ? or(...windows) : undefined, visibleTo(q.scope));
      const [{ total }] = await db.select({ total: count() }).from(items).where(where);
      const rows = await db
        .select()
        .from(items)
        .where(where)
        .orderBy(desc(items.createdDate), desc(items.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit);
      return { rows, total, totalPages: Math.ceil(total / q.limit), page: q.page };
    },
  };
}
