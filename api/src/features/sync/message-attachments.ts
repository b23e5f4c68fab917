import { ATTACHMENT_MAX_BYTES, type MessageAttachment, type MessageAttachmentFile } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { FeedAbortedError, FeedFormatError, FeedHttpError } from '../../sources/errors.js';
import type { GraphMessagesClient } from '../../sources/graph-messages.js';
import type { RequestControl } from '../../sources/http.js';
import { keptFiles, storeFile, wantedFiles } from './message-attachments.repo.js';

/**
 * The files of posts' attachments. A sync lists them (items.attachments); after it, the files not kept yet — or
 * changed since (another size or lastModified) — are downloaded into message_attachments, so they stay available
 * when Microsoft drops the post. A file over ATTACHMENT_MAX_BYTES is recorded as too large and not asked for again
 * until it changes; any other failure is recorded and tried again after the next sync.
 */

const sizeText = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MB` : `${bytes.toLocaleString('en-US')} bytes`);
const tooLarge = (maxBytes: number) => `Larger than ${sizeText(maxBytes)}: not kept`;

/** Downloads the files the synced posts list and the product does not keep yet; returns how many it kept. */
export async function downloadMissingAttachments(
  deps: { db: DbOrTx; client: GraphMessagesClient; log: Logger; now: () => Date; maxBytes?: number; tenantId?: number },
  control: RequestControl = {},
): Promise<number> {
  const maxBytes = deps.maxBytes ?? ATTACHMENT_MAX_BYTES;
  let kept = 0;
  for (const w of await wantedFiles(deps.db, tooLarge(maxBytes), deps.tenantId)) {
    if (w.attachment.size !== null && w.attachment.size > maxBytes) {
      await storeFile(deps.db, w, { content: null, contentType: null, error: tooLarge(maxBytes) }, deps.now());
      continue;
    }
    try {
      const file = await deps.client.downloadAttachment(w.messageId, w.attachment.id, maxBytes, control);
      await storeFile(deps.db, w, { content: file.body, contentType: file.contentType, error: null }, deps.now());
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
      await storeFile(deps.db, w, { content: null, contentType: null, error }, deps.now());
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
  const kept = await keptFiles(db, itemId);
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
