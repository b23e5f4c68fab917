import { ATTACHMENT_MAX_BYTES, type MessageAttachment, type MessageAttachmentFile } from '@radar/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { messageAttachments } from '../../db/schema/index.js';
import type { Logger } from '../../logger.js';
import { FeedAbortedError, FeedFormatError, FeedHttpError } from '../../sources/errors.js';
import type { GraphMessagesClient } from '../../sources/graph-messages.js';
import type { RequestControl } from '../../sources/http.js';

/**
 * The files of posts' attachments. A sync lists them (items.attachments); after it, the files not kept yet — or
 * changed since (another size or lastModified) — are downloaded into message_attachments, so they stay available
 * when Microsoft drops the post. A file over ATTACHMENT_MAX_BYTES is recorded as too large and not asked for again
 * until it changes; any other failure is recorded and tried again after the next sync.
 */

const sizeText = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MB` : `${bytes.toLocaleString('en-US')} bytes`);
const tooLarge = (maxBytes: number) => `Larger than ${sizeText(maxBytes)}: not kept`;

interface Wanted {
  itemId: number;
  messageId: string;
  attachment: MessageAttachment;
}

/** Live posts' attachments whose file is not kept yet, changed since, or failed before for a reason other than size. */
async function wantedFiles(db: DbOrTx, maxBytes: number): Promise<Wanted[]> {
  const { rows } = await db.execute<{ item_id: number; external_id: string; attachment: MessageAttachment }>(sql`
    SELECT i.id AS item_id, i.external_id, a.attachment
    FROM items i CROSS JOIN LATERAL jsonb_array_elements(i.attachments) AS a(attachment)
    LEFT JOIN message_attachments m ON m.item_id = i.id AND m.attachment_id = a.attachment->>'id'
    WHERE i.source = 'messages' AND NOT i.is_removed AND i.has_attachments
      AND (m.item_id IS NULL
        OR m.last_modified IS DISTINCT FROM a.attachment->>'lastModified'
        OR m.size IS DISTINCT FROM (a.attachment->>'size')::int
        OR (m.content IS NULL AND m.error IS DISTINCT FROM ${tooLarge(maxBytes)}))`);
  return rows.map((r) => ({ itemId: r.item_id, messageId: r.external_id, attachment: r.attachment }));
}

async function store(db: DbOrTx, w: Wanted, result: { content: Buffer | null; contentType: string | null; error: string | null }, now: Date) {
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

/** Downloads the files the synced posts list and the product does not keep yet; returns how many it kept. */
export async function downloadMissingAttachments(
  deps: { db: DbOrTx; client: GraphMessagesClient; log: Logger; now: () => Date; maxBytes?: number },
  control: RequestControl = {},
): Promise<number> {
  const maxBytes = deps.maxBytes ?? ATTACHMENT_MAX_BYTES;
  let kept = 0;
  for (const w of await wantedFiles(deps.db, maxBytes)) {
    if (w.attachment.size !== null && w.attachment.size > maxBytes) {
      await store(deps.db, w, { content: null, contentType: null, error: tooLarge(maxBytes) }, deps.now());
      continue;
    }
    try {
      const file = await deps.client.downloadAttachment(w.messageId, w.attachment.id, maxBytes, control);
      await store(deps.db, w, { content: file.body, contentType: file.contentType, error: null }, deps.now());
      kept++;
    } catch (err) {
      if (err instanceof FeedAbortedError) throw err;
      const error =
        err instanceof FeedFormatError && /allowed/.test(err.message)
          ? tooLarge(maxBytes)
          : err instanceof FeedHttpError
            ? `Microsoft Graph answered HTTP ${err.status}`
            : (err as Error).message;
      deps.log.warn({ message: w.messageId, attachment: w.attachment.id, err: (err as Error).message }, 'attachment not downloaded');
      await store(deps.db, w, { content: null, contentType: null, error }, deps.now());
    }
  }
  if (kept > 0) deps.log.info({ files: kept }, 'Message Center attachments downloaded');
  return kept;
}

/** A post's attachments as its API answers them: each with its download link, or why it cannot be downloaded. */
export async function attachmentFilesOf(
  db: DbOrTx,
  itemId: number,
  listed: MessageAttachment[],
  downloadUrl: (attachmentId: string) => string,
): Promise<MessageAttachmentFile[]> {
  if (listed.length === 0) return [];
  const kept = await db
    .select({
      attachmentId: messageAttachments.attachmentId,
      hasContent: sql<boolean>`${messageAttachments.content} IS NOT NULL`,
      error: messageAttachments.error,
    })
    .from(messageAttachments)
    .where(eq(messageAttachments.itemId, itemId));
  const byId = new Map(kept.map((k) => [k.attachmentId, k]));
  return listed.map((a) => {
    const file = byId.get(a.id);
    const available = Boolean(file?.hasContent);
    return {
      ...a,
      downloadUrl: available ? downloadUrl(a.id) : null,
      unavailableReason: available ? null : (file?.error ?? 'Not downloaded yet: it is fetched after the next Message Center sync'),
    };
  });
}

/** The kept file of one attachment, or null. */
export async function readAttachment(db: DbOrTx, itemId: number, attachmentId: string) {
  const [row] = await db
    .select({ name: messageAttachments.name, contentType: messageAttachments.contentType, content: messageAttachments.content })
    .from(messageAttachments)
    .where(and(eq(messageAttachments.itemId, itemId), eq(messageAttachments.attachmentId, attachmentId)));
  return row?.content ? { name: row.name, contentType: row.contentType, content: row.content } : null;
}
