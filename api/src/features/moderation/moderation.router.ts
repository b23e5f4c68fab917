import { endpoints, type ModerationUpdate, type ModeratorActivityRequest } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { returned } from '../../db/returned.js';
import { NotFoundError } from '../../http/errors.js';
import { toUnifiedItem } from '../items/item-mapper.js';
import { moderationActions } from './moderation-audit.js';
import { createModerationRepo, toModeratorActivity } from './moderation.repo.js';

/**
 * A client's activity record that arrives this soon after the server recorded the same user's save of the same item
 * is that save's record: it answers the server's row instead of writing a second one.
 */
export const CLIENT_RECORD_WINDOW_MS = 2 * 60 * 1000;

/**
 * Curation by moderators and admins (401 signed out, 403 without the role: declared in the endpoint table). A save
 * writes its audit rows (the action types of docs/product/item-dialogs.md, derived from before/after) in its own transaction; who did it
 * always comes from the session.
 */
export function createModerationEndpoints(ctx: AppContext): EndpointImplementation[] {
  async function save(source: 'roadmap' | 'messages', externalId: string, update: ModerationUpdate, by: { id: number; email: string }) {
    const now = ctx.clock.now();
    const result = await ctx.db.transaction(async (tx) => {
      const repo = createModerationRepo(tx);
      const before = await repo.lockCuration(source, externalId);
      if (!before) return undefined;
      // The row is locked above, so the update finds it.
      const row = returned(await repo.update(source, externalId, update, { email: by.email }, now));
      const actions = moderationActions(before, row);
      const item = { itemType: source === 'roadmap' ? ('roadmap' as const) : ('message_center' as const), itemId: row.externalId, itemTitle: row.title };
      await repo.insertServerActivities(actions, item, by, now);
      return { row, actions: actions.map((a) => a.actionType) };
    });
    if (!result) throw new NotFoundError(`${source === 'roadmap' ? 'Roadmap item' : 'Message'} ${externalId} not found`);
    const { row, actions } = result;
    ctx.log.info({ source, externalId, by: by.id, actions }, 'item moderated');
    return { success: true, message: 'Moderation settings updated successfully', item: toUnifiedItem(row, { includeNotes: true }) };
  }

  /**
   * The moderation dialog posts one record after each successful save. The server recorded that save already, so a record
   * of the same user and item within CLIENT_RECORD_WINDOW_MS answers the server's row (the one of the same action type,
   * else the newest) with 200 and writes nothing; only a record with no such row is stored (201, marked as the
   * client's).
   */
  async function recordActivity(body: ModeratorActivityRequest & { itemTitle: string }, by: { id: number; email: string }) {
    const now = ctx.clock.now();
    const repo = createModerationRepo(ctx.db);
    const recent = await repo.recentActivities(by, body, new Date(now.getTime() - CLIENT_RECORD_WINDOW_MS));
    const existing = recent.find((r) => r.actionType === body.actionType) ?? recent.find((r) => r.recordedBy === 'server');
    if (existing) return Reply.status(200, toModeratorActivity(existing));
    return Reply.status(201, await repo.recordClientActivity(body, by, now));
  }

  return [
    implement(endpoints.curation.moderateRoadmap, ({ params, body, auth }) => save('roadmap', params.itemId, body, auth.user)),
    implement(endpoints.curation.moderateMessage, ({ params, body, auth }) => save('messages', params.messageId, body, auth.user)),
    // Who did it comes from the session; userId/userEmail in the body are ignored.
    implement(endpoints.curation.recordActivity, ({ body, auth: { user } }) => recordActivity(body, { id: user.id, email: user.email })),
  ];
}
