/** The items bench's request mix, shared by items.bench.ts (load) and explain.ts (plans). */
export interface Scenario {
  name: string;
  paths: string[];
  /** Counted against the p95 target (the three scenarios); extras are reported for information. */
  target: boolean;
}

export const SCENARIOS: Scenario[] = [
  { name: 'default list (page 1, 50 rows, createdDate desc)', target: true, paths: ['/api/unified/items'] },
  {
    name: 'filtered list (4 combinations rotated)',
    target: true,
    paths: [
      '/api/unified/items?products=Microsoft%20Teams&roadmapStatuses=In%20development&messageCenterTags=Admin%20impact',
      '/api/unified/items?sources=roadmap&cloudInstances=GCC%20High&sortField=modifiedDate',
      '/api/unified/items?changeTypes=new_30days,changed_7days',
      '/api/unified/items?sources=messages&messageCenterTags=Retirement&page=2',
    ],
  },
  {
    name: 'search (4 queries rotated: words, prefix, exact id)',
    target: true,
    paths: [
      '/api/unified/items?search=copilot%20meetings',
      '/api/unified/items?search=webinar%20transcri',
      '/api/unified/items?search=MC1012345',
      '/api/unified/items?search=sensitivity%20labels%20purv',
    ],
  },
  { name: '(extra) search for one very common word', target: false, paths: ['/api/unified/items?search=teams'] },
  { name: '(extra) deep page (page 500)', target: false, paths: ['/api/unified/items?page=500'] },
  {
    name: '(extra) archive and date slips (4 rotated)',
    target: false,
    paths: [
      '/api/unified/items?includeRemoved=true',
      '/api/unified/items?releaseMoved=30days',
      '/api/unified/items?sortField=releaseMoves',
      '/api/unified/items?includeRemoved=true&sources=messages&messageCenterTags=Retirement',
    ],
  },
];

/**
 * Requests only EXPLAINed (not loaded: they need a signed-in user). `sinceLastVisit` is explained with a visit
 * 3 days before the bench's clock (see explain.ts).
 */
export const EXPLAIN_ONLY: string[] = ['/api/unified/items?sinceLastVisit=true', '/api/unified/items?sinceLastVisit=true&sources=roadmap&roadmapStatuses=In%20development'];

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
