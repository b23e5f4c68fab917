import { healthResponse, readyResponse, resultMessage, tokenQuery } from '../common.js';
import { raw, defineEndpoints } from '../endpoint.js';
import { contactRequest, contactResponse } from '../contact.js';
import { weeklyDigestResponse } from '../digest.js';
import { weeklyDigestSignup, weeklyDigestStatus, weeklyDigestToggleResponse } from '../subscriptions.js';

/** The weekly digest page and subscriptions, the contact form, and mail links. */
export const digestEndpoints = defineEndpoints('digest', {
  weeklyDigest: {
    method: 'GET',
    path: '/api/weekly-digest',
    summary: 'New and updated items of the past 7 days',
    access: 'public',
    tokenAccess: true,
    response: weeklyDigestResponse,
  },
  signup: {
    method: 'POST',
    path: '/api/weekly-digest/signup',
    summary: 'Sign a visitor up for the Sunday digest: mails a confirmation link (double opt-in)',
    access: 'public',
    body: weeklyDigestSignup,
    response: resultMessage,
  },
  confirmPage: {
    method: 'GET',
    path: '/api/weekly-digest/confirm',
    summary: "The confirmation mail's link: a page with a Confirm button (changes nothing)",
    access: 'public',
    query: tokenQuery,
    status: [200, 400],
    response: raw('text/html'),
  },
  confirmSubscription: {
    method: 'POST',
    path: '/api/weekly-digest/confirm',
    summary: 'Confirm a visitor digest subscription by its signed, single-use link',
    access: 'public',
    query: tokenQuery,
    status: [200, 400],
    response: raw('text/html'),
  },
  status: {
    method: 'GET',
    path: '/api/weekly-digest/status',
    summary: "The caller's digest subscription",
    access: 'signedIn',
    tokenAccess: true,
    response: weeklyDigestStatus,
  },
  subscribe: {
    method: 'POST',
    path: '/api/weekly-digest/subscribe-authenticated',
    summary: 'Subscribe the caller to the Sunday digest',
    access: 'signedIn',
    tokenAccess: 'manage',
    response: weeklyDigestToggleResponse,
  },
  unsubscribe: {
    method: 'POST',
    path: '/api/weekly-digest/unsubscribe-authenticated',
    summary: 'Unsubscribe the caller from the Sunday digest',
    access: 'signedIn',
    tokenAccess: 'manage',
    response: weeklyDigestToggleResponse,
  },
});

/** The one unsubscribe link of every mail (digest, followed items, saved-search alerts); the signed token is the authority. */
export const unsubscribeEndpoints = defineEndpoints('unsubscribe', {
  page: {
    method: 'GET',
    path: '/api/unsubscribe',
    summary: "A mail's unsubscribe link: a confirmation page (changes nothing)",
    access: 'public',
    query: tokenQuery,
    status: [200, 400],
    response: raw('text/html'),
  },
  confirm: {
    method: 'POST',
    path: '/api/unsubscribe',
    summary: 'Unsubscribe by signed token (the page button and RFC 8058 one-click)',
    access: 'public',
    query: tokenQuery,
    status: [200, 400],
    response: raw('text/html'),
  },
});

export const contactEndpoints = defineEndpoints('contact', {
  submit: {
    method: 'POST',
    path: '/api/contact',
    summary: 'Send the contact form',
    access: 'public',
    body: contactRequest,
    status: [201],
    response: contactResponse,
  },
});

export const healthEndpoints = defineEndpoints('health', {
  health: { method: 'GET', path: '/healthz', summary: 'The process answers', access: 'public', tokenAccess: true, response: healthResponse },
  ready: {
    method: 'GET',
    path: '/readyz',
    summary: 'The process and its database answer (503 otherwise)',
    access: 'public',
    tokenAccess: true,
    status: [200, 503],
    response: readyResponse,
  },
});
