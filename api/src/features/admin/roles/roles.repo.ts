import { asc, eq, sql } from 'drizzle-orm';
import type { Role } from '@radar/contracts';
import type { DbOrTx } from '../../../db/client.js';
import { roles } from '../../../db/schema/index.js';
import { returned } from '../../../db/returned.js';

type Row = typeof roles.$inferSelect;

export function toRole(row: Row): Role {
  return { id: row.id, name: row.name, description: row.description, permissions: row.permissions, isBuiltIn: row.isBuiltIn };
}

export interface RoleValues {
  name: string;
  description: string | null;
  permissions: string[];
}

export function createRolesRepo(db: DbOrTx) {
  return {
    async list(): Promise<Row[]> {
      // Built-in roles first (Admin, Moderator, User), then custom roles by name.
      return db
        .select()
        .from(roles)
        .orderBy(sql`${roles.isBuiltIn} DESC`, asc(roles.name));
    },
    async find(id: number): Promise<Row | undefined> {
      const [row] = await db.select().from(roles).where(eq(roles.id, id));
      return row;
    },
    /** Case-insensitive: "admin" and "Admin" side by side would only confuse people. */
    async findByName(name: string): Promise<Row | undefined> {
      const [row] = await db
        .select()
        .from(roles)
        .where(sql`lower(${roles.name}) = lower(${name})`);
      return row;
    },
    async insert(values: RoleValues, now: Date): Promise<Row> {
      const [row] = await db
        .insert(roles)
        .values({ ...values, isBuiltIn: false, createdAt: now, updatedAt: now })
        .returning();
      return returned(row);
    },
    async update(id: number, values: RoleValues, now: Date): Promise<Row | undefined> {
      const [row] = await db
        .update(roles)
        .set({ ...values, updatedAt: now })
        .where(eq(roles.id, id))
        .returning();
      return row;
    },
    async remove(id: number): Promise<boolean> {
      const rows = await db.delete(roles).where(eq(roles.id, id)).returning({ id: roles.id });
      return rows.length > 0;
    },
  };
}
