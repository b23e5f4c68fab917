import type { MessageAttachment } from '@radar/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { messageAttachments } from '../../db/schema/index.js';

/** The kept files of posts' attachments (message_attachments) and what the sync still has to download. */

export interface Wanted {
  itemId: number;
  messageId: string;
  attachment: MessageAttachment;
}

/** Live posts' attachments (of one tenant's posts, when given) whose file is not kept yet, changed since, or failed before for a reason other than size. */
export async function wantedFiles(db: DbOrTx, tooLargeError: string, tenantId?: number): Promise<Wanted[]> {
  const { rows } = await db.execute<{ item_id: number; external_id: string; attachment: MessageAttachment }>(sql`
    SELECT i.id AS item_id, i.external_id, a.attachment
    FROM items i CROSS JOIN LATERAL jsonb_array_elements(i.attachments) AS a(attachment)
    LEFT JOIN message_attachments m ON m.item_id = i.id AND m.attachment_id = a.attachment->>'id'
    WHERE i.source = 'messages' AND NOT i.is_removed AND i.has_attachments
      ${tenantId !== undefined ? sql`AND EXISTS (SELECT 1 FROM item_tenants t WHERE t.item_id = i.id AND t.tenant_id = ${tenantId} AND NOT t.expired)` : sql``}
      AND (m.item_id IS NULL
        OR m.last_modified IS DISTINCT FROM a.attachment->>'lastModified'
        OR m.size IS DISTINCT FROM (a.attachment->>'size')::int
        OR (m.content IS NULL AND m.error IS DISTINCT FROM ${tooLargeError}))`);
  return rows.map((r) => ({ itemId: r.item_id, messageId: r.external_id, attachment: r.attachment }));
}

export async function storeFile(db: DbOrTx, w: Wanted, result: { content: Buffer | null; contentType: string | null; error: string | null }, now: Date) {
  const a = w.attachment;
  const values = {
    itemId: w.itemId,
    attachmentId: a.id,
    name: a.name,
    contentType: result.contentType ?? a.contentType,
    size: a.size ?? result.content?.length ?? null,
    lastModified: a.lastModified,
    content: result.content,
    fetchedAt: now,
    error: result.error,
  };
  await db
    .insert(messageAttachments)
    .values(values)
    .onConflictDoUpdate({ target: [messageAttachments.itemId, messageAttachments.attachmentId], set: values });
}

/** What is kept of one post's attachments: which have a file, and why the others do not. */
export async function keptFiles(db: DbOrTx, itemId: number) {
  return db
    .select({
      attachmentId: messageAttachments.attachmentId,
      hasContent: sql<boolean>`${messageAttachments.content} IS NOT NULL`,
      error: messageAttachments.error,
    })
    .from(messageAttachments)
    .where(eq(messageAttachments.itemId, itemId));
}

/** The kept file of one attachment, or null. */
export async function readAttachment(db: DbOrTx, itemId: number, attachmentId: string) {
  const [row] = await db
    .select({ name: messageAttachments.name, contentType: messageAttachments.contentType, content: messageAttachments.content })
    .from(messageAttachments)
    .where(and(eq(messageAttachments.itemId, itemId), eq(messageAttachments.attachmentId, attachmentId)));
  return row?.content ? { name: row.name, contentType: row.contentType, content: row.content } : null;
}
