/**
 * The whole data model, one file per domain. drizzle-kit reads this folder to generate migrations; code imports the
 * tables from here.
 */
import type { heldSnapshots, syncHistory } from './sync.js';
import type { items } from './items.js';
import type { users } from './people.js';
import type { tenants } from './tenants.js';

export * from './people.js';
export * from './items.js';
export * from './sync.js';
export * from './outbox.js';
export * from './mail.js';
export * from './alerts.js';
export * from './admin.js';
export * from './state.js';
export * from './tenants.js';
export * from './triage.js';
export * from './trackers.js';
export * from './passkeys.js';
export * from './relevance.js';

export type ItemRow = typeof items.$inferSelect;
export type NewItemRow = typeof items.$inferInsert;
export type UserRow = typeof users.$inferSelect;
export type SyncHistoryRow = typeof syncHistory.$inferSelect;
export type HeldSnapshotRow = typeof heldSnapshots.$inferSelect;
export type TenantRow = typeof tenants.$inferSelect;
