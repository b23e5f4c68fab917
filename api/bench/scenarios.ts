/** The items bench's request mix, shared by items.bench.ts (load) and explain.ts (plans). */
export interface Scenario {
  name: string;
  paths: string[];
  /**
   * The target it is held to: a list p95 ≤ 20 ms and ≥ 1,000 requests/s, a search p95 ≤ 40 ms;
   * null: reported for information.
   */
  goal: 'list' | 'search' | null;
  /** Request headers (none by default: the JSON as it is). */
  headers?: Record<string, string>;
}

export const GOALS = { list: { p95Ms: 20, rps: 1000 }, search: { p95Ms: 40, rps: 0 } } as const;

export const SCENARIOS: Scenario[] = [
  { name: 'default list (page 1, 50 rows, createdDate desc)', goal: 'list', paths: ['/api/unified/items'] },
  {
    name: 'filtered list (4 combinations rotated)',
    goal: 'list',
    paths: [
      '/api/unified/items?products=Microsoft%20Teams&roadmapStatuses=In%20development&messageCenterTags=Admin%20impact',
      '/api/unified/items?sources=roadmap&cloudInstances=GCC%20High&sortField=modifiedDate',
      '/api/unified/items?changeTypes=new_30days,changed_7days',
      '/api/unified/items?sources=messages&messageCenterTags=Retirement&page=2',
    ],
  },
  {
    name: 'search (4 queries rotated: words, prefix, exact id)',
    goal: 'search',
    paths: [
      '/api/unified/items?search=copilot%20meetings',
      '/api/unified/items?search=webinar%20transcri',
      '/api/unified/items?search=MC1012345',
      '/api/unified/items?search=sensitivity%20labels%20purv',
    ],
  },
  { name: '(extra) search for one very common word', goal: null, paths: ['/api/unified/items?search=teams'] },
  { name: '(extra) deep page (page 500)', goal: null, paths: ['/api/unified/items?page=500'] },
  {
    name: '(extra) archive and date slips (4 rotated)',
    goal: null,
    paths: [
      '/api/unified/items?includeRemoved=true',
      '/api/unified/items?releaseMoved=30days',
      '/api/unified/items?sortField=releaseMoves',
      '/api/unified/items?includeRemoved=true&sources=messages&messageCenterTags=Retirement',
    ],
  },
];

/**
 * Searches nobody asked before: every request a new pair of words (the second one a prefix, as while typing), so
 * no answer or total can come from a cache: what a burst of new searches costs.
 */
export function distinctSearches(words: string[], count: number): Scenario {
  const paths: string[] = [];
  for (let i = 0; paths.length < count; i++) {
    const a = words[i % words.length]!;
    const b = words[(i * 7 + Math.floor(i / words.length) + 1) % words.length]!;
    if (a !== b) paths.push(`/api/unified/items?search=${encodeURIComponent(`${a} ${b.slice(0, Math.max(3, b.length - 1))}`)}`);
  }
  return { name: 'search, every query new (no cache can answer)', goal: 'search', paths };
}

/** Common searches on the real feeds ("teams meeting"), and the real list. */
export const REAL_FEED_SCENARIOS: Scenario[] = [
  { name: 'real feeds: default list', goal: 'list', paths: ['/api/unified/items'] },
  {
    name: 'real feeds: search, common words (teams meeting, copilot, outlook calendar, sharepoint)',
    goal: 'search',
    paths: ['teams meeting', 'copilot', 'outlook calendar', 'sharepoint'].map((q) => `/api/unified/items?search=${encodeURIComponent(q)}`),
  },
];

/**
 * Requests only EXPLAINed (not loaded: they need a signed-in user). `sinceLastVisit` is explained with a visit
 * 3 days before the bench's clock (see explain.ts).
 */
export const EXPLAIN_ONLY: string[] = [
  '/api/unified/items?sinceLastVisit=true',
  '/api/unified/items?sinceLastVisit=true&sources=roadmap&roadmapStatuses=In%20development',
];

/** The query object of a scenario path, as express hands it to the router (repeated keys become arrays). */
export function queryOf(p: string): Record<string, string | string[]> {
  const params = new URL(p, 'http://x').searchParams;
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}
