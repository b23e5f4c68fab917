import { resultMessage, idParams } from '../common.js';
import { defineEndpoints } from '../endpoint.js';
import {
  moderatedMessageParams,
  moderatedRoadmapParams,
  moderationSaveResponse,
  moderationUpdate,
  moderatorActivity,
  moderatorActivityRequest,
} from '../moderation.js';
import { createItemSubscription, notificationSubscription, notificationSubscriptionsResponse } from '../subscriptions.js';

/** Moderation from the item dialog and the signed-in user's item subscriptions. */
export const curationEndpoints = defineEndpoints('curation', {
  moderateRoadmap: {
    method: 'PUT',
    path: '/api/moderator/roadmap/:itemId',
    summary: 'Save the featured flag, third-party links and notes of a roadmap item',
    access: 'moderator',
    params: moderatedRoadmapParams,
    body: moderationUpdate,
    response: moderationSaveResponse,
  },
  moderateMessage: {
    method: 'PUT',
    path: '/api/moderator/message/:messageId',
    summary: 'Save the featured flag, third-party links and notes of a Message Center post',
    access: 'moderator',
    params: moderatedMessageParams,
    body: moderationUpdate,
    response: moderationSaveResponse,
  },
  recordActivity: {
    method: 'POST',
    path: '/api/moderator-activity',
    summary: 'Record a moderator action (who comes from the session); a record of a save the server already audited answers that row (200)',
    access: 'moderator',
    body: moderatorActivityRequest,
    bodyLimit: '16kb',
    status: [201, 200],
    response: moderatorActivity,
  },
});

export const subscriptionEndpoints = defineEndpoints('subscriptions', {
  list: {
    method: 'GET',
    path: '/api/notification-subscriptions',
    summary: "The caller's subscriptions",
    access: 'signedIn',
    tokenAccess: true,
    response: notificationSubscriptionsResponse,
  },
  create: {
    method: 'POST',
    path: '/api/notification-subscriptions',
    summary: 'Follow an item: an e-mail when it changes',
    access: 'signedIn',
    tokenAccess: 'manage',
    body: createItemSubscription,
    status: [200, 201],
    response: notificationSubscription,
  },
  remove: {
    method: 'DELETE',
    path: '/api/notification-subscriptions/:id',
    summary: 'Stop following an item',
    access: 'signedIn',
    tokenAccess: 'manage',
    params: idParams,
    response: resultMessage,
  },
});
