import type { ItemType, ModerationUpdate, ModeratorActivityRequest, UnifiedItem } from '@radar/contracts';
import { apiRequest } from '@radar/shared-ui';
import { providerIdOf } from './items.js';

export const itemTypeOf = (item: Pick<UnifiedItem, 'source'>): ItemType => (item.source === 'roadmap' ? 'roadmap' : 'message_center');

/** PUT /api/moderator/roadmap/{itemId} or PUT /api/moderator/message/{messageId}. */
export function saveModeration(item: UnifiedItem, update: ModerationUpdate) {
  const id = encodeURIComponent(providerIdOf(item));
  const path = item.source === 'roadmap' ? `/api/moderator/roadmap/${id}` : `/api/moderator/message/${id}`;
  return apiRequest<unknown>('PUT', path, update);
}

export function postModeratorActivity(record: ModeratorActivityRequest) {
  return apiRequest<unknown>('POST', '/api/moderator-activity', record);
}
