import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { itemHistory, items } from '../../../db/schema/index.js';

/** The item of a source with this id, in any case (admins type ids by hand), or undefined. */
export async function findItemByExternalId(db: DbOrTx, source: 'roadmap' | 'messages', externalId: string) {
  const [item] = await db
    .select({ id: items.id, externalId: items.externalId, title: items.title, isRemoved: items.isRemoved })
    .from(items)
    .where(and(eq(items.source, source), sql`lower(${items.externalId}) = lower(${externalId})`))
    .limit(1);
  return item;
}

/** The item's most recent recorded change (a 'changed' history row), or undefined. */
export async function latestChange(db: DbOrTx, itemId: number) {
  const [latest] = await db
    .select()
    .from(itemHistory)
    .where(and(eq(itemHistory.itemId, itemId), eq(itemHistory.changeType, 'changed')))
    .orderBy(desc(itemHistory.changeDate), desc(itemHistory.id))
    .limit(1);
  return latest;
}
