import { z } from './zod.js';
import { ITEM_SUBSCRIPTION_CHANGE_TYPES, ITEM_TYPES, SUBSCRIPTION_TYPES } from './constants.js';
import { email } from './common.js';

export const notificationSubscription = z.object({
  id: z.number().int(),
  subscriptionType: z.enum(SUBSCRIPTION_TYPES),
  itemId: z.string().nullable(),
  itemType: z.enum(ITEM_TYPES).nullable(),
  itemTitle: z.string().nullable(),
  changeTypes: z.array(z.enum(ITEM_SUBSCRIPTION_CHANGE_TYPES)),
  isActive: z.boolean(),
  createdAt: z.string().optional(),
});
export type NotificationSubscription = z.infer<typeof notificationSubscription>;

/** POST /api/notification-subscriptions, exactly as the dialog posts it. */
export const createItemSubscription = z.object({
  subscriptionType: z.literal('item', { error: "subscriptionType must be 'item'" }),
  itemId: z.string().trim().min(1, 'itemId is required').max(50),
  itemType: z.enum(ITEM_TYPES, { error: "itemType must be 'roadmap' or 'message_center'" }),
  itemTitle: z.string().max(1000).optional(),
  changeTypes: z.array(z.enum(ITEM_SUBSCRIPTION_CHANGE_TYPES)).min(1).default(['changed', 'status_change']),
  isActive: z.boolean().default(true),
});
export type CreateItemSubscription = z.input<typeof createItemSubscription>;

/** POST /api/weekly-digest/signup (all three required). */
export const weeklyDigestSignup = z.object({
  email,
  firstName: z.string({ error: 'firstName is required' }).trim().min(1, 'firstName is required').max(100),
  lastName: z.string({ error: 'lastName is required' }).trim().min(1, 'lastName is required').max(100),
});
export type WeeklyDigestSignup = z.infer<typeof weeklyDigestSignup>;

export const weeklyDigestStatus = z.object({ isSubscribed: z.boolean(), email: z.string().nullable() });
export type WeeklyDigestStatus = z.infer<typeof weeklyDigestStatus>;

export const notificationSubscriptionsResponse = z.array(notificationSubscription);
export type NotificationSubscriptionsResponse = z.infer<typeof notificationSubscriptionsResponse>;

/** The answer of the signed-in digest toggle: the result and the status after it. */
export const weeklyDigestToggleResponse = weeklyDigestStatus.extend({ success: z.boolean(), message: z.string() });
export type WeeklyDigestToggleResponse = z.infer<typeof weeklyDigestToggleResponse>;
