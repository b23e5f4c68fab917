import type { ModerationUpdate, ModeratorActivityRequest } from '@radar/contracts';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { NotFoundError } from '../../lib/errors.js';
import type { Logger } from '../../logger.js';
import { toUnifiedItem } from '../items/item-mapper.js';
import type { TenantScope } from '../items/item-query.js';
import { moderationActions } from './moderation-audit.js';
import { createModerationRepo, toModeratorActivity } from './moderation.repo.js';

/**
 * A client's activity record that arrives this soon after the server recorded the same user's save of the same item
 * is that save's record: it answers the server's row instead of writing a second one.
 */
export const CLIENT_RECORD_WINDOW_MS = 2 * 60 * 1000;

export interface Curator {
  id: number;
  email: string;
}

export type CurationService = ReturnType<typeof createCurationService>;

/** Curation's use cases: saving an item's moderation with its audit rows, and the dialog's own activity record. */
export function createCurationService(deps: { db: Db; clock: Clock; log: Logger }) {
  /**
   * Saves the moderation fields and writes the audit rows (the action types of docs/product/item-dialogs.md, derived
   * from the row before and after) in one transaction, the row locked so two saves never interleave. A post of
   * tenants the curator may not see (scope) is not found, exactly like an unknown id.
   */
  async function save(source: 'roadmap' | 'messages', externalId: string, update: ModerationUpdate, by: Curator, scope: TenantScope | undefined) {
    const now = deps.clock.now();
    const result = await deps.db.transaction(async (tx) => {
      const repo = createModerationRepo(tx);
      const before = await repo.lockCuration(source, externalId, scope);
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
    deps.log.info({ source, externalId, by: by.id, actions }, 'item moderated');
    return { success: true, message: 'Moderation settings updated successfully', item: toUnifiedItem(row, { includeNotes: true }) };
  }

  /**
   * The moderation dialog posts one record after each successful save. The server recorded that save already, so a
   * record of the same user and item within CLIENT_RECORD_WINDOW_MS is answered with the server's row (the one of the
   * same action type, else the newest) and nothing is written (`created: false`); only a record with no such row is
   * stored, marked as the client's. The item must be one the curator may see (scope): an unknown id and a post of
   * tenants outside the scope are both 404.
   */
  async function recordActivity(body: ModeratorActivityRequest & { itemTitle: string }, by: Curator, scope: TenantScope | undefined) {
    const now = deps.clock.now();
    const repo = createModerationRepo(deps.db);
    const source = body.itemType === 'roadmap' ? 'roadmap' : 'messages';
    if (!(await repo.isVisible(source, body.itemId, scope))) {
      throw new NotFoundError(`${source === 'roadmap' ? 'Roadmap item' : 'Message'} ${body.itemId} not found`);
    }
    const recent = await repo.recentActivities(by, body, new Date(now.getTime() - CLIENT_RECORD_WINDOW_MS));
    const existing = recent.find((r) => r.actionType === body.actionType) ?? recent.find((r) => r.recordedBy === 'server');
    if (existing) return { created: false, activity: toModeratorActivity(existing) };
    return { created: true, activity: await repo.recordClientActivity(body, by, now) };
  }

  return { save, recordActivity };
}
