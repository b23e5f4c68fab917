/**
 * EXPLAIN (ANALYZE, BUFFERS) of every items-bench request, page and count, against a running database:
 *   DATABASE_URL=postgres://… npx tsx --conditions=source bench/explain.ts [filter]
 * Buffer counts (shared hit/read) and rows touched are deterministic, unlike latencies on a shared machine.
 */
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { itemListQuery } from '@radar/contracts';
import { itemWhere, searchPlan } from '../src/features/items/item-query.js';
import { countSql, pageSql } from '../src/features/items/list-page-sql.js';
import { EXPLAIN_ONLY, queryOf, SCENARIOS } from './scenarios.js';

const dialect = new PgDialect();

export async function explainPath(pool: pg.Pool | pg.Client, path: string, now: Date, opts = { analyze: true }) {
  const parsed = itemListQuery.parse(queryOf(path));
  // sinceLastVisit is a signed-in user's previous visit: the bench's user visited 3 days ago.
  const q = parsed.sinceLastVisit ? { ...parsed, visitSince: new Date(now.getTime() - 3 * 24 * 60 * 60 * 1000) } : parsed;
  const plan = searchPlan(q.search);
  const where = itemWhere(q, now, plan);
  const page = dialect.sqlToQuery(pageSql(q, now, plan, (q.page - 1) * q.limit));
  const count = dialect.sqlToQuery(countSql(where));
  const run = async (s: { sql: string; params: unknown[] }) =>
    (await pool.query(`EXPLAIN (ANALYZE ${opts.analyze}, BUFFERS, COSTS OFF, TIMING ON, SUMMARY ON) ${s.sql}`, s.params)).rows.map(
      (r) => r['QUERY PLAN'] as string,
    );
  return { page: await run(page), count: await run(count) };
}

/** The plan's "Execution Time" in ms (0 when the plan has none). */
export function executionMs(lines: string[]): number {
  return Number(/Execution Time: ([\d.]+)/.exec(lines.find((l) => l.startsWith('Execution Time')) ?? '')?.[1] ?? 0);
}

/** The plan's "Planning Time" in ms (0 when the plan has none: EXPLAIN ANALYZE prints it, or SUMMARY ON). */
export function planningMs(lines: string[]): number {
  return Number(/Planning Time: ([\d.]+)/.exec(lines.find((l) => l.startsWith('Planning Time')) ?? '')?.[1] ?? 0);
}

/** Total shared buffers (hit + read) of the top plan node. */
export function topBuffers(lines: string[]): { hit: number; read: number } {
  const line = lines.find((l) => /Buffers: shared/.test(l)) ?? '';
  return { hit: Number(/hit=(\d+)/.exec(line)?.[1] ?? 0), read: Number(/read=(\d+)/.exec(line)?.[1] ?? 0) };
}

async function main() {
  const filter = process.argv[2];
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  const now = new Date();
  for (const s of [...SCENARIOS, { paths: EXPLAIN_ONLY }]) {
    for (const p of s.paths) {
      if (filter && !p.includes(filter)) continue;
      const r = await explainPath(pool, p, now);
      // Twice: the second run shows the warm cache (what the load sees), the first one the cold reads.
      const warm = await explainPath(pool, p, now);
      const b = topBuffers(warm.page);
      const c = topBuffers(warm.count);
      process.stdout.write(
        `\n### ${p}\npage buffers ${b.hit + b.read} (${executionMs(warm.page)} ms), count buffers ${c.hit + c.read} (${executionMs(warm.count)} ms)\n`,
      );
      if (process.env.VERBOSE) process.stdout.write(`${warm.page.join('\n')}\n--- count\n${warm.count.join('\n')}\n`);
      void r;
    }
  }
  await pool.end();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  });
}
