import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { LruCache } from '../../lib/lru-cache.js';
import type { SearchPlan } from './item-query.js';

const DAY_MS = 24 * 60 * 60 * 1000;

// Stand-ins for a search's own values while its statement's text is built: no text a reader types can hold a NUL.
const WORDS = '\u0000words\u0000';
const PREFIX = '\u0000prefix\u0000';
const ID = '\u0000id\u0000';
const SEARCH = '\u0000search\u0000';
const STAND_IN = '\u0000';

type Part = 'words' | 'prefix' | 'ids';

/** A statement's text and parameters with the search's own values left to fill in (`slots`: parameter index, part). */
interface Template {
  text: string;
  params: unknown[];
  slots: [index: number, part: Part][];
}

/** What a statement is built from: the request with its search text, and that text's plan. */
export type SearchStatementBuilder = (search: string, plan: SearchPlan, now: Date) => SQL;

/**
 * The statements of new searches, built once per shape: every search is new, and building a search page's statement
 * with drizzle (a few hundred SQL fragments, each type-checked as it is turned into text) cost about a tenth of a new
 * search's CPU (docs/benchmarks.md, "The api's speed back"). A shape is what the statement's text depends on: the
 * caller's `shape` (the request without its search text), whether the search has complete words, how many ids it can
 * be, and the day. The words, the prefix and the ids are only ever parameters, so the text built once with stand-ins
 * for them serves every search of that shape with its own values put in their place.
 *
 * Checked when a shape is first built, else the statement is built anew for every search of that shape: the stand-ins
 * must appear as parameters only, each where a search's words, prefix or ids go, and the statement must be the same a
 * day later (a statement that moves with the time, such as a time-relative filter's, has values that are not the
 * search's alone).
 */
export function createSearchStatements(dialect: PgDialect, entries = 2000) {
  const templates = new LruCache<Template | null>({ entries, weight: entries });
  return (shape: string, search: string, plan: SearchPlan, now: Date, build: SearchStatementBuilder): { sql: string; params: unknown[] } => {
    const key = JSON.stringify([shape, Boolean(plan.words), plan.ids.length, now.toISOString().slice(0, 10)]);
    let template = templates.get(key);
    if (template === undefined) {
      template = templateOf(dialect, plan, now, build);
      templates.set(key, template);
    }
    if (!template) return dialect.sqlToQuery(build(search, plan, now));
    const params = template.params.slice();
    for (const [index, part] of template.slots) params[index] = part === 'ids' ? plan.ids : plan[part];
    return { sql: template.text, params };
  };
}
export type SearchStatements = ReturnType<typeof createSearchStatements>;

function templateOf(dialect: PgDialect, plan: SearchPlan, now: Date, build: SearchStatementBuilder): Template | null {
  const standIn: SearchPlan = { words: plan.words ? WORDS : '', prefix: PREFIX, ids: plan.ids.map(() => ID) };
  const today = dialect.sqlToQuery(build(SEARCH, standIn, now));
  const tomorrow = dialect.sqlToQuery(build(SEARCH, standIn, new Date(now.getTime() + DAY_MS)));
  let params: string;
  try {
    params = JSON.stringify(today.params);
    if (today.sql !== tomorrow.sql || params !== JSON.stringify(tomorrow.params)) return null;
  } catch {
    return null;
  }
  if (today.sql.includes(STAND_IN)) return null;
  const slots: [number, Part][] = [];
  for (const [index, value] of today.params.entries()) {
    if (value === WORDS) slots.push([index, 'words']);
    else if (value === PREFIX) slots.push([index, 'prefix']);
    else if (Array.isArray(value) && value.length > 0 && value.every((v) => v === ID)) slots.push([index, 'ids']);
    else if (JSON.stringify(value)?.includes('\\u0000')) return null;
  }
  return { text: today.sql, params: today.params, slots };
}
