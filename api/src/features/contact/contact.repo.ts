import { desc, eq } from 'drizzle-orm';
import type { ContactRequest, ContactSubmission } from '@radar/contracts';
import type { Db } from '../../db/client.js';
import { contactSubmissions } from '../../db/schema/index.js';
import { returned } from '../../db/returned.js';

type Row = typeof contactSubmissions.$inferSelect;

function toContract(row: Row): ContactSubmission {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    message: row.message,
    submittedAt: row.submittedAt.toISOString(),
    isRead: row.isRead,
  };
}

export function createContactRepo(db: Db) {
  return {
    async insert(input: ContactRequest, submittedAt: Date): Promise<ContactSubmission> {
      const [row] = await db
        .insert(contactSubmissions)
        .values({ ...input, submittedAt })
        .returning();
      return toContract(returned(row));
    },
    async list(): Promise<ContactSubmission[]> {
      const rows = await db.select().from(contactSubmissions).orderBy(desc(contactSubmissions.submittedAt), desc(contactSubmissions.id));
      return rows.map(toContract);
    },
    async markRead(id: number, at: Date): Promise<ContactSubmission | undefined> {
      const [row] = await db.update(contactSubmissions).set({ isRead: true, readAt: at }).where(eq(contactSubmissions.id, id)).returning();
      return row ? toContract(row) : undefined;
    },
    async remove(id: number): Promise<boolean> {
      const rows = await db.delete(contactSubmissions).where(eq(contactSubmissions.id, id)).returning({ id: contactSubmissions.id });
      return rows.length > 0;
    },
  };
}
