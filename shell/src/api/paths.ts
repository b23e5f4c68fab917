import { FEATURED_LIMIT, SOURCES, endpointUrl, routes } from '@radar/contracts';

// GET URLs the shell's hooks ask for, React-free so the entry can start them early (federation/preload.ts); the
// hooks ask useEndpoint for the same route and args, which gives the same URL (its SWR key).
export const DASHBOARD_STATS_ARGS = { query: { sources: [...SOURCES] } };
export const FEATURED_RECENT_ARGS = { query: { limit: FEATURED_LIMIT } };
export const DASHBOARD_STATS_KEY = endpointUrl(routes.items.stats, DASHBOARD_STATS_ARGS);
export const FEATURED_RECENT_KEY = endpointUrl(routes.items.featuredRecent, FEATURED_RECENT_ARGS);
