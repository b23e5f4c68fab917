import { toQueryString, type TriageRule } from '@radar/contracts';

/**
 * A dashboard view as a rule keeps it: a dashboard URL (or its query string) pasted by the admin, read as the list's
 * filters (a key given several times is a list). The server checks it as it checks a saved search.
 */
export function viewQueryOf(text: string): Record<string, string | string[]> {
  const trimmed = text.trim();
  const query = trimmed.includes('?') ? trimmed.slice(trimmed.indexOf('?') + 1) : trimmed;
  const params = new URLSearchParams(query.split('#')[0] ?? '');
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key).filter(Boolean);
    if (values.length === 1 && values[0] !== undefined) out[key] = values[0];
    else if (values.length > 1) out[key] = values;
  }
  return out;
}

/** The dashboard link of a rule's view (it shows what the rule matches today). */
export function viewUrlOf(query: TriageRule['query']): string {
  const text = toQueryString(query);
  return text ? `/dashboard?${text}` : '/dashboard';
}
