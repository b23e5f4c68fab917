import { describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { itemListQuery } from '@radar/contracts';
import { searchPlan, type ItemListRequest, type SearchPlan } from './item-query.js';
import { pageSql } from './list-page-sql.js';
import { createSearchStatements, type SearchStatementBuilder } from './search-statements.js';
import { viewTime } from './view-time.js';

/**
 * A search's page statement is built once per shape and filled with each search's own words (search-statements.ts):
 * it must be the statement built for that search, text and parameters, whatever the filters, page, order, tenant scope
 * and words; a statement that moves with the time is built for every search.
 */
const dialect = new PgDialect();
const NOW = new Date('2026-11-29T10:00:00Z');

const SEARCHES = ['copilot outl', 'teams', 'MC1012345', '313800', 'sensitivity labels purv', 'a b c d', 'copilot 2025 rel', 'Ünïcödé wörds ö', "o'brien x"];
const QUERIES = [
  '',
  'sources=roadmap',
  'sources=messages,roadmap&products=Microsoft%20Teams&productFamilies=microsoft365',
  'sortField=modifiedDate&sortDirection=asc',
  'page=2&limit=20',
  'page=9',
  'includeRemoved=true&messageCenterTags=Retirement',
  'sortField=releaseMoves',
  'sortField=timing',
  'tenants=3,4&licensed=true',
  // Time-relative: built for every search.
  'timeline=7days',
  'changeTypes=new_30days',
  'releaseMoved=30days',
  'rollingOut=30days',
];
const SCOPES: ItemListRequest['tenantScope'][] = [undefined, 'all', { granted: [3, 4] }];

function requestOf(query: string, search: string, tenantScope: ItemListRequest['tenantScope']): ItemListRequest {
  const parsed = itemListQuery.parse(Object.fromEntries(new URLSearchParams(`${query}&search=${encodeURIComponent(search)}`)));
  return { ...parsed, ...(tenantScope ? { tenantScope } : {}) };
}

describe('search statements built once per shape', () => {
  it('are the statement built for each search, text and parameters', () => {
    const statements = createSearchStatements(dialect);
    let compared = 0;
    for (const query of QUERIES)
      for (const tenantScope of SCOPES)
        for (const search of SEARCHES) {
          const q = requestOf(query, search, tenantScope);
          const plan = searchPlan(q.search)!;
          const offset = (q.page - 1) * q.limit;
          const build: SearchStatementBuilder = (text, p, at) => pageSql({ ...q, search: text }, at, p, offset);
          const direct = dialect.sqlToQuery(build(q.search!, plan, NOW));
          // Twice: the first builds the shape, the second fills it.
          for (let i = 0; i < 2; i++) {
            const made = statements(JSON.stringify([{ ...q, search: undefined }, offset]), q.search!, plan, NOW, build);
            expect(made.sql).toBe(direct.sql);
            expect(made.params).toEqual(direct.params);
            compared++;
          }
        }
    expect(compared).toBe(QUERIES.length * SCOPES.length * SEARCHES.length * 2);
  });

  it('builds a shape once, and a statement that moves with the time for every search', () => {
    const statements = createSearchStatements(dialect);
    const builds: string[] = [];
    const run = (query: string, search: string) => {
      const q = requestOf(query, search, undefined);
      const offset = (q.page - 1) * q.limit;
      const build: SearchStatementBuilder = (text, p, at) => {
        builds.push(text);
        return pageSql({ ...q, search: text }, at, p, offset);
      };
      return statements(JSON.stringify([{ ...q, search: undefined }, offset]), q.search!, searchPlan(q.search)!, NOW, build);
    };
    for (const search of ['copilot outl', 'teams meet', 'labels purv', 'sharepoint sit']) run('sources=roadmap', search);
    // Two builds of stand-ins (now and a day later) for the shape, none for the searches after it.
    expect(builds).toHaveLength(2);
    expect(builds.every((text) => text.includes('\u0000'))).toBe(true);
    builds.length = 0;
    for (const search of ['copilot outl', 'teams meet', 'labels purv']) run('timeline=7days', search);
    // The stand-ins' check finds the time in it: each search is built as it is.
    expect(builds.filter((text) => !text.includes('\u0000'))).toEqual(['copilot outl', 'teams meet', 'labels purv']);
  });

  it('builds every search of a shape whose search text reaches the statement other than as its words', () => {
    const statements = createSearchStatements(dialect);
    // A statement that writes the text itself (as a value no stand-in is put in for): never filled from a shape.
    const build: SearchStatementBuilder = (text: string, plan: SearchPlan) => sql`SELECT ${plan.prefix}, ${`note: ${text}`}`;
    const a = statements('odd', 'alpha be', searchPlan('alpha be')!, NOW, build);
    const b = statements('odd', 'gamma de', searchPlan('gamma de')!, NOW, build);
    expect(a.params).toEqual(['be:*', 'note: alpha be']);
    expect(b.params).toEqual(['de:*', 'note: gamma de']);
  });
});

describe('view time', () => {
  it('works out whether a view moves with the time once per filter set, whatever the search', () => {
    const built: unknown[] = [];
    const original = PgDialect.prototype.sqlToQuery;
    PgDialect.prototype.sqlToQuery = function (this: PgDialect, ...args: Parameters<PgDialect['sqlToQuery']>) {
      built.push(args[0]);
      return original.apply(this, args);
    };
    try {
      const searches = ['copilot outl', 'teams meet', 'labels purv', 'sharepoint sit'];
      // Filter sets of their own (the answers are kept for the process, and other tests' sets may be known already).
      const products = [`view time ${Math.random()}`];
      expect(searches.map((search) => viewTime({ search, products, timeline: '30days' }, NOW).bucket)).toEqual(
        searches.map(() => Math.floor(NOW.getTime() / 60_000)),
      );
      expect(searches.map((search) => viewTime({ search, products }, NOW).bucket)).toEqual(searches.map(() => null));
      // Two filter sets, each tested once (its SQL at two instants): not once per search.
      expect(built).toHaveLength(4);
    } finally {
      PgDialect.prototype.sqlToQuery = original;
    }
  });
});
