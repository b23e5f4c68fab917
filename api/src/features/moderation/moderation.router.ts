import { endpoints, type ModerationUpdate } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../http/errors.js';
import { toUnifiedItem } from '../items/item-mapper.js';
import { createModerationRepo } from './moderation.repo.js';

/** Curation by moderators and admins (401 signed out, 403 without the role: declared in the endpoint table). */
export function createModerationEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createModerationRepo(ctx.db);

  async function save(source: 'roadmap' | 'messages', externalId: string, update: ModerationUpdate, by: { id: number; email: string }) {
    const row = await repo.update(source, externalId, update, { email: by.email }, ctx.clock.now());
    if (!row) throw new NotFoundError(`${source === 'roadmap' ? 'Roadmap item' : 'Message'} ${externalId} not found`);
    ctx.log.info({ source, externalId, by: by.id, isFeatured: row.isFeatured }, 'item moderated');
    return { success: true, message: 'Moderation settings updated successfully', item: toUnifiedItem(row, { includeNotes: true }) };
  }

  return [
    implement(endpoints.curation.moderateRoadmap, ({ params, body, auth }) => save('roadmap', params.itemId, body, auth.user)),
    implement(endpoints.curation.moderateMessage, ({ params, body, auth }) => save('messages', params.messageId, body, auth.user)),
    // Who did it comes from the session; userId/userEmail in the body are ignored.
    implement(endpoints.curation.recordActivity, ({ body, auth: { user } }) =>
      repo.recordActivity(body, { id: user.id, email: user.email }, ctx.clock.now()),
    ),
  ];
}
