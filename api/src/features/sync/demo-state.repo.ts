import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { appState, items } from '../../db/schema/index.js';
import type { ItemSource } from './records.js';

/**
 * Whether the shipped demo data set is what users are looking at. Kept in app_state (key 'demoData') for the log
 * and the stats endpoint (`isDemoData`), and derivable from items.is_demo.
 */
export const DEMO_STATE_KEY = 'demoData';

export interface DemoState {
  roadmap: boolean;
  messages: boolean;
  updatedAt: string;
}

export async function setDemoFlag(db: DbOrTx, source: ItemSource, loaded: boolean, now: Date): Promise<void> {
  const current = await getDemoState(db);
  const value: DemoState = { ...current, [source]: loaded, updatedAt: now.toISOString() };
  await db
    .insert(appState)
    .values({ key: DEMO_STATE_KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: now } });
}

export async function getDemoState(db: DbOrTx): Promise<DemoState> {
  const [row] = await db.select().from(appState).where(eq(appState.key, DEMO_STATE_KEY));
  const value = (row?.value ?? {}) as Partial<DemoState>;
  return { roadmap: value.roadmap === true, messages: value.messages === true, updatedAt: value.updatedAt ?? '' };
}

/** True while any visible item comes from the demo data set: what the stats endpoint reports as isDemoData. */
export async function isDemoDataLoaded(db: DbOrTx): Promise<boolean> {
  const [row] = await db
    .select({ yes: sql<boolean>`true` })
    .from(items)
    .where(and(eq(items.isDemo, true), eq(items.isRemoved, false)))
    .limit(1);
  return Boolean(row?.yes);
}
