import { FEATURED_LIMIT } from '@radar/contracts';

// GET paths the shell's hooks use, React-free so the entry can start them early (federation/preload.ts).
export const DASHBOARD_STATS_KEY = '/api/dashboard/stats';
export const FEATURED_RECENT_KEY = `/api/featured/recent?limit=${FEATURED_LIMIT}`;
