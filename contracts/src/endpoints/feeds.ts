import { raw, defineEndpoints } from '../endpoint.js';
import { itemListQuery } from '../items.js';

/** Feeds are read by anyone and anything: the team's triage views are refused by name rather than ignored. */
const feedQuery = itemListQuery.refine((q) => !q.triage, { path: ['triage'], message: 'triage views are not available in feeds' });

/**
 * Subscribable views (docs/api.md#feeds): the list's own query (`itemListQuery`, so every list filter works here
 * too, but the triage views); page, limit and sort are accepted and ignored. 304 answers a matching
 * If-None-Match / If-Modified-Since.
 */
export const feedEndpoints = defineEndpoints('feeds', {
  itemsRss: {
    method: 'GET',
    path: '/api/feeds/items.rss',
    summary: 'RSS 2.0 feed of the newest 100 items matching the list filters, by last activity',
    access: 'public',
    tokenAccess: true,
    query: feedQuery,
    status: [200, 304],
    response: raw('application/rss+xml'),
  },
  itemsAtom: {
    method: 'GET',
    path: '/api/feeds/items.atom',
    summary: 'Atom 1.0 feed of the newest 100 items matching the list filters, by last activity',
    access: 'public',
    tokenAccess: true,
    query: feedQuery,
    status: [200, 304],
    response: raw('application/atom+xml'),
  },
  releasesIcs: {
    method: 'GET',
    path: '/api/feeds/releases.ics',
    summary: 'iCalendar of the GA and preview months of the roadmap items matching the list filters',
    access: 'public',
    tokenAccess: true,
    query: feedQuery,
    status: [200, 304],
    response: raw('text/calendar'),
  },
});
