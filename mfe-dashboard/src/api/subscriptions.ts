import useSWR from 'swr';
import type { CreateItemSubscription, ItemType, NotificationSubscription } from '@radar/contracts';
import { apiRequest } from '@radar/shared-ui';

export const SUBSCRIPTIONS_PATH = '/api/notification-subscriptions';

/** The signed-in user's subscriptions; nothing is fetched for guests. */
export function useSubscriptions(enabled: boolean) {
  return useSWR<NotificationSubscription[]>(enabled ? SUBSCRIPTIONS_PATH : null);
}

/** The active item subscription for this item, if any. */
export function findItemSubscription(list: NotificationSubscription[] | undefined, itemType: ItemType, itemId: string) {
  return (list ?? []).find((s) => s.subscriptionType === 'item' && s.isActive && s.itemType === itemType && s.itemId === itemId);
}

/** POST exactly the spec's payload (01 §7). */
export function createItemSubscription(itemType: ItemType, itemId: string, itemTitle: string) {
  const body: CreateItemSubscription = { subscriptionType: 'item', itemId, itemType, itemTitle, changeTypes: ['changed', 'status_change'], isActive: true };
  return apiRequest<unknown>('POST', SUBSCRIPTIONS_PATH, body);
}

export function deleteSubscription(id: number) {
  return apiRequest<unknown>('DELETE', `${SUBSCRIPTIONS_PATH}/${id}`);
}
