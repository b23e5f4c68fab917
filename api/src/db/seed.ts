import { sql } from 'drizzle-orm';
import { BUILT_IN_ROLES } from '@radar/contracts';
import type { DbOrTx } from './client.js';
import { roles } from './schema/index.js';

const DESCRIPTIONS: Record<string, string> = {
  Admin: 'Full access to the admin dashboard and every feature',
  Moderator: 'Can feature items, add third-party links and internal notes',
  User: 'Basic dashboard access',
};

/** Admin, Moderator and User exist in every installation. Idempotent. */
export async function seedBuiltInRoles(db: DbOrTx): Promise<void> {
  await db
    .insert(roles)
    .values(BUILT_IN_ROLES.map((name) => ({ name, description: DESCRIPTIONS[name], isBuiltIn: true })))
    .onConflictDoUpdate({ target: roles.name, set: { isBuiltIn: sql`true` } });
}
