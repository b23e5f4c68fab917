import { endpoints, type MessageAttachment } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin } from '../../http/auth.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../lib/errors.js';
import { sanitizeForOutput } from '../../lib/html.js';
import { messageSections } from '../../sources/message-sections.js';
import { attachmentFilesOf } from '../sync/message-attachments.js';
import { readAttachment } from '../sync/message-attachments.repo.js';
import { createSourceItemsRepo } from './source-items.repo.js';
import { toUnifiedItem } from './item-mapper.js';
import { tenantStatusFor } from './tenant-status.repo.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import { createServiceHealthRepo } from '../service-health/service-health.repo.js';

/**
 * GET /api/message-center/items/{messageId}: one post, found whether it is live, expired or withdrawn (a share link
 * must always resolve), with its body cut into its sections — each sanitised like the whole body — and the status
 * Microsoft reports for the tenant per platform (only to readers who may see the tenant whose copy it is). The body
 * stays whole in `bodyContent`.
 *
 * GET /api/message-center/items/{messageId}/attachments/{attachmentId}: the kept file, always as a download
 * (Content-Disposition: attachment, nosniff, a sandboxing CSP): a file from Microsoft is never rendered as our page.
 */
export function createMessageItemEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createSourceItemsRepo(ctx.db);
  return [
    implement(endpoints.items.messageItem, async ({ params, auth }) => {
      const scope = await tenantScopeOf(ctx.db, auth);
      const row = await repo.find('messages', params.messageId, scope);
      if (!row) throw new NotFoundError(`Message ${params.messageId} not found`);
      const [tenants, relatedIssues, tenantStatus] = await Promise.all([
        createTenantsRepo(ctx.db).ofItem(row.id, scope),
        createServiceHealthRepo(ctx.db).relatedTo(row, scope),
        tenantStatusFor(ctx.db, row, scope),
      ]);
      const includeNotes = isModeratorOrAdmin(auth);
      const downloadUrl = (attachmentId: string) =>
        `/api/message-center/items/${encodeURIComponent(row.externalId)}/attachments/${encodeURIComponent(attachmentId)}`;
      return {
        ...toUnifiedItem(row, { includeNotes }),
        sections: messageSections(row.bodyHtml ?? '').map((s) => ({ ...s, html: sanitizeForOutput(s.html) })),
        tenantStatus,
        attachmentFiles: await attachmentFilesOf(ctx.db, row.id, (row.attachments ?? []) as MessageAttachment[], downloadUrl),
        tenants: tenants.map((t) => ({ ...t, firstSeen: t.firstSeen.toISOString(), lastModified: t.lastModified?.toISOString() ?? null })),
        relatedIssues: relatedIssues.map((r) => toUnifiedItem(r, { includeNotes })),
      };
    }),
    implement(endpoints.items.messageAttachment, async ({ params, res, auth }) => {
      const row = await repo.find('messages', params.messageId, await tenantScopeOf(ctx.db, auth));
      const file = row ? await readAttachment(ctx.db, row.id, params.attachmentId) : null;
      if (!file) throw new NotFoundError(`Attachment ${params.attachmentId} of ${params.messageId} not found`);
      res.setHeader('Content-Type', safeContentType(file.contentType));
      res.setHeader('Content-Disposition', contentDisposition(file.name));
      res.setHeader('Content-Length', String(file.content.length));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'");
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.end(file.content);
    }),
  ];
}

/** The type Microsoft gave, when it is a plain media type; else a download of unknown type. */
function safeContentType(type: string | null): string {
  return type && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[a-z0-9-]+=("[^"]*"|[a-z0-9!#$&^_.+-]+))*$/i.test(type.trim())
    ? type.trim()
    : 'application/octet-stream';
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): a plain fallback name and the exact one. */
function contentDisposition(name: string): string {
  const plain = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
