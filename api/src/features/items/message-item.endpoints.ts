import { endpoints, featureStatusEntries } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin } from '../../http/auth.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../http/errors.js';
import { sanitizeForOutput } from '../../lib/html.js';
import { messageSections } from '../../sources/message-sections.js';
import { createSourceItemsRepo } from '../roadmap-items/source-items.repo.js';
import { toUnifiedItem } from './item-mapper.js';

/**
 * GET /api/message-center/items/{messageId}: one post, found whether it is live, expired or withdrawn (a share link
 * must always resolve), with its body cut into its sections — each sanitised like the whole body — and the status
 * Microsoft reports for the tenant per platform. The body stays whole in `bodyContent`.
 */
export function createMessageItemEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createSourceItemsRepo(ctx.db);
  return [
    implement(endpoints.items.messageItem, async ({ params, auth }) => {
      const row = await repo.find('messages', params.messageId);
      if (!row) throw new NotFoundError(`Message ${params.messageId} not found`);
      return {
        ...toUnifiedItem(row, { includeNotes: isModeratorOrAdmin(auth) }),
        sections: messageSections(row.bodyHtml ?? '').map((s) => ({ ...s, html: sanitizeForOutput(s.html) })),
        tenantStatus: featureStatusEntries(row.featureStatus),
      };
    }),
  ];
}
