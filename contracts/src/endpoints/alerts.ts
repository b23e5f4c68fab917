import { idParams, resultMessage } from '../common.js';
import { defineEndpoints } from '../endpoint.js';
import {
  alertChannel,
  alertChannelInput,
  alertChannelsResponse,
  alertChannelUpdate,
  alertDeliveriesResponse,
  alertTestResponse,
  createdAlertChannel,
  savedSearch,
  savedSearchesResponse,
  savedSearchInput,
} from '../alerts.js';

/**
 * Saved searches with alerts and the channels they go to (e-mail, Microsoft Teams, Slack, generic webhooks). Every
 * user sees and changes only their own; admins also manage the organisation's (scope `organisation`).
 */
export const alertEndpoints = defineEndpoints('alerts', {
  listSavedSearches: {
    method: 'GET',
    path: '/api/saved-searches',
    summary: "The caller's saved searches (admins: also the organisation's), newest first",
    access: 'signedIn',
    response: savedSearchesResponse,
  },
  getSavedSearch: {
    method: 'GET',
    path: '/api/saved-searches/:id',
    summary: 'One saved search of the caller (opened on the dashboard to edit its filters)',
    access: 'signedIn',
    params: idParams,
    response: savedSearch,
  },
  createSavedSearch: {
    method: 'POST',
    path: '/api/saved-searches',
    summary: 'Save a dashboard view with its alert settings',
    access: 'signedIn',
    body: savedSearchInput,
    status: [201],
    response: savedSearch,
  },
  updateSavedSearch: {
    method: 'PUT',
    path: '/api/saved-searches/:id',
    summary: 'Replace a saved search (rename, filters, alert settings, channels, pause)',
    access: 'signedIn',
    params: idParams,
    body: savedSearchInput,
    response: savedSearch,
  },
  deleteSavedSearch: {
    method: 'DELETE',
    path: '/api/saved-searches/:id',
    summary: 'Delete a saved search',
    access: 'signedIn',
    params: idParams,
    response: resultMessage,
  },
  listChannels: {
    method: 'GET',
    path: '/api/alert-channels',
    summary: "The caller's alert channels (admins: also the organisation's); URLs masked",
    access: 'signedIn',
    response: alertChannelsResponse,
  },
  createChannel: {
    method: 'POST',
    path: '/api/alert-channels',
    summary: "Add an alert channel; a webhook's signing secret is shown only in this answer",
    access: 'signedIn',
    body: alertChannelInput,
    status: [201, 200],
    response: createdAlertChannel,
  },
  updateChannel: {
    method: 'PUT',
    path: '/api/alert-channels/:id',
    summary: 'Rename, pause or resume an alert channel',
    access: 'signedIn',
    params: idParams,
    body: alertChannelUpdate,
    response: alertChannel,
  },
  deleteChannel: {
    method: 'DELETE',
    path: '/api/alert-channels/:id',
    summary: 'Delete an alert channel (saved searches stop sending to it)',
    access: 'signedIn',
    params: idParams,
    response: resultMessage,
  },
  testChannel: {
    method: 'POST',
    path: '/api/alert-channels/:id/test',
    summary: 'Send a test message to the channel now and answer how the receiver replied',
    access: 'signedIn',
    params: idParams,
    response: alertTestResponse,
  },
  channelDeliveries: {
    method: 'GET',
    path: '/api/alert-channels/:id/deliveries',
    summary: "The channel's delivery log: time, status code, latency and the start of each answer, newest first",
    access: 'signedIn',
    params: idParams,
    response: alertDeliveriesResponse,
  },
});
