import { ITEM_SUBSCRIPTION_CHANGE_TYPES, routes, type ItemType, type NotificationSubscription, type NotificationSubscriptionsResponse } from '@radar/contracts';
import { callEndpoint, urlOf, useEndpoint } from './endpoint-client.js';

// Item subscriptions are written from the dashboard's item dialog and from /notifications (the shell), so their
// calls live here, once.

/** SWR key of the caller's subscriptions: both apps revalidate it after a change. */
export const SUBSCRIPTIONS_KEY = urlOf(routes.subscriptions.list, {});

/** GET /api/notification-subscriptions; nothing is fetched for guests. */
export function useNotificationSubscriptions(enabled: boolean) {
  return useEndpoint(routes.subscriptions.list, enabled ? {} : null);
}

/** The caller's active subscription to this item, if any. */
export function findItemSubscription(
  list: NotificationSubscriptionsResponse | undefined,
  itemType: ItemType,
  itemId: string,
): NotificationSubscription | undefined {
  return (list ?? []).find((s) => s.subscriptionType === 'item' && s.isActive && s.itemType === itemType && s.itemId === itemId);
}

/** POST /api/notification-subscriptions with `{ itemType, itemId, itemTitle }`, the payload the API documents. */
export function subscribeToItem(itemType: ItemType, itemId: string, itemTitle: string) {
  return callEndpoint(routes.subscriptions.create, {
    body: { subscriptionType: 'item', itemId, itemType, itemTitle, changeTypes: [...ITEM_SUBSCRIPTION_CHANGE_TYPES], isActive: true },
  });
}

/** DELETE /api/notification-subscriptions/{id}. */
export function removeSubscription(id: number) {
  return callEndpoint(routes.subscriptions.remove, { params: { id } });
}
