import { routes, type ItemType, type ModerationUpdate, type ModeratorActivityRequest, type UnifiedItem } from '@radar/contracts';
import { callEndpoint } from '@radar/shared-ui';
import { providerIdOf } from './items.js';

export const itemTypeOf = (item: Pick<UnifiedItem, 'source'>): ItemType => (item.source === 'roadmap' ? 'roadmap' : 'message_center');

/** PUT /api/moderator/roadmap/{itemId} or PUT /api/moderator/message/{messageId}; answers the item as stored now. */
export function saveModeration(item: UnifiedItem, update: ModerationUpdate) {
  const id = providerIdOf(item);
  return item.source === 'roadmap'
    ? callEndpoint(routes.curation.moderateRoadmap, { params: { itemId: id }, body: update })
    : callEndpoint(routes.curation.moderateMessage, { params: { messageId: id }, body: update });
}

/** POST /api/moderator-activity. */
export function postModeratorActivity(record: ModeratorActivityRequest) {
  return callEndpoint(routes.curation.recordActivity, { body: record });
}
