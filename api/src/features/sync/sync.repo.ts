import { and, eq, inArray, sql } from 'drizzle-orm';
import { chunks } from '../../lib/chunks.js';
import type { DbOrTx } from '../../db/client.js';
import { itemHistory, items, messageRoadmapLinks, type ItemRow, type NewItemRow } from '../../db/schema/index.js';
import type { ExistingItem, HistoryDraft } from './plan.js';
import type { ItemSource } from './records.js';

/** The only code that writes feed data. Everything is batched: a sync is a handful of statements, not one per item. */

const INSERT_CHUNK = 400;
const HISTORY_CHUNK = 1000;

/** Just what change detection needs: no bodies, so a no-change re-sync reads little. */
export async function loadExistingIndex(db: DbOrTx, source: ItemSource): Promise<Map<string, ExistingItem>> {
  const rows = await db
    .select({
      id: items.id,
      externalId: items.externalId,
      contentHash: items.contentHash,
      isRemoved: items.isRemoved,
      modifiedDate: items.modifiedDate,
      contentTenantId: items.contentTenantId,
      safeVersion: items.safeVersion,
      safeSource: items.safeSource,
    })
    .from(items)
    .where(eq(items.source, source));
  return new Map(rows.map((r) => [r.externalId, r]));
}

export async function loadFullRows(db: DbOrTx, ids: number[]): Promise<ItemRow[]> {
  const out: ItemRow[] = [];
  for (const part of chunks(ids, 5000)) out.push(...(await db.select().from(items).where(inArray(items.id, part))));
  return out;
}

/** Demo items are fiction: the first real snapshot replaces them outright instead of recording them as removed. */
export async function deleteDemoItems(db: DbOrTx, source: ItemSource): Promise<number> {
  const deleted = await db
    .delete(items)
    .where(and(eq(items.source, source), eq(items.isDemo, true)))
    .returning({ id: items.id });
  return deleted.length;
}

export async function insertItems(
  db: DbOrTx,
  source: ItemSource,
  rows: Omit<NewItemRow, 'source'>[],
  extra: Partial<NewItemRow> = {},
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks(rows, INSERT_CHUNK)) {
    const inserted = await db
      .insert(items)
      .values(part.map((r) => ({ ...r, ...extra, source })))
      .returning({ id: items.id, externalId: items.externalId });
    for (const r of inserted) ids.set(r.externalId, r.id);
  }
  return ids;
}

export async function updateItems(db: DbOrTx, updates: { id: number; set: Partial<NewItemRow> }[]): Promise<void> {
  for (const u of updates) await db.update(items).set(u.set).where(eq(items.id, u.id));
}

export async function markRemoved(db: DbOrTx, ids: number[], now: Date): Promise<void> {
  for (const part of chunks(ids, 5000)) {
    await db.update(items).set({ isRemoved: true, removedAt: now }).where(inArray(items.id, part));
  }
}

export async function insertHistory(
  db: DbOrTx,
  drafts: HistoryDraft[],
  idOf: (externalId: string) => number,
  changeDate: Date,
  syncId: number | null,
): Promise<void> {
  const rows = drafts.map((d) => ({
    itemId: idOf(d.externalId),
    changeType: d.changeType,
    changeDate,
    changedFields: d.changedFields,
    previousValues: d.previousValues,
    newValues: d.newValues,
    syncId,
  }));
  for (const part of chunks(rows, HISTORY_CHUNK)) await db.insert(itemHistory).values(part);
}

export interface LinkRow {
  messageItemId: number;
  roadmapExternalId: string;
  origin: 'details' | 'body';
}

/** Rewrites the links of these messages: the message's current RoadmapIds and body links are the truth. */
export async function replaceLinks(db: DbOrTx, messageItemIds: number[], links: LinkRow[]): Promise<void> {
  for (const part of chunks(messageItemIds, 5000)) {
    await db.delete(messageRoadmapLinks).where(inArray(messageRoadmapLinks.messageItemId, part));
  }
  for (const part of chunks(links, HISTORY_CHUNK)) await db.insert(messageRoadmapLinks).values(part).onConflictDoNothing();
}

export async function countActive(db: DbOrTx, source: ItemSource): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(items)
    .where(and(eq(items.source, source), eq(items.isRemoved, false)));
  return row?.n ?? 0;
}

export async function countItems(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(items);
  return row?.n ?? 0;
}
