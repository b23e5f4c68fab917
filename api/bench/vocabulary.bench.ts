/**
 * Search totals on the feeds' own words: how far PostgreSQL's estimate of a search's matches is from the true count
 * on real text, which decides the margin past which the api does not count a search's matches (ESTIMATE_MARGIN), and
 * what a search's page and count cost there.
 *
 * The recorded feeds (those of the real-data suite, kept beside the repository, not in it) are applied through the
 * production sync (real-feeds.ts): the roadmap and Message Center of 2026-01-31 and 2026-02-07, then the Message
 * Center of 2026-08-22 (the 2026 post format). Every item is listed (the bench measures text, not the sync's
 * removals), then the items are copied until the table holds 100,000: a copy keeps every word of its item, so which
 * words go together and how often is the feeds' own, at the scale of the search bench. Searches are made as a reader
 * types: two neighbouring words of a real title with the second cut to a prefix (phrases: words that go together), and
 * a word of a roadmap title with the prefix of a word of a Message Center title and the other way round (words that
 * rarely meet). For each search, the estimate the api reads (EXPLAIN of its WHERE) beside the true count.
 *
 * Then the search bench's load on this text: the api in its own production process, wrk with 10 connections, every
 * request a search never asked before (made the same way, none of them measured above), answers compressed as a
 * browser asks. The seeded bench puts words together independently; real titles' words go together, so their searches
 * match more rows than the planner expects, and this is what a reader of real feeds at 100,000 items meets.
 *
 * Without the recorded feeds the section says it was not measured.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { itemListQuery } from '@radar/contracts';
import type { Database } from '../src/db/client.js';
import { itemWhere, searchPlan } from '../src/features/items/item-query.js';
import { estimateRows } from '../src/features/items/items.repo.js';
import { cappedCountSql, countSql, ESTIMATE_MARGIN, EXACT_SEARCH_TOTAL, pageSql, RANK_WINDOW } from '../src/features/items/list-page-sql.js';
import { postmasterPid, startApi } from './api-process.js';
import { withBenchDatabase } from './bench-db.js';
import { executionMs, planningMs } from './explain.js';
import { applyRecordedMessages, AUGUST_MESSAGES, FIXTURES, loadRealFeeds, realFeedsAvailable } from './real-feeds.js';
import type { Bench } from './run.js';
import { BROWSER_ENCODINGS, measureWrkLoad, runWrk, WRK, wrkAvailable } from './wrk.js';
import { percentile } from './stats.js';

const ITEMS = 100_000;
/** Searches of each kind (phrases from roadmap titles, from Message Center titles, and the two crossings). */
const PER_KIND = 700;
/** Searches whose page and count are timed (EXPLAIN ANALYZE: planning + execution, warm). */
const TIMED = 400;
const MARGINS = [3, 4, 5, 6, 8, 10];
/** The load: clients, and seconds of warm-up and of measurement (the search bench's). */
const CLIENTS = 10;
const WARM_SECONDS = 3;
const LOAD_SECONDS = 10;
/** Searches made for the load, each of its kinds (more than the load can send). */
const LOAD_PER_KIND = 4000;
const SEARCH_TARGET_MS = 50;
const NOW = new Date('2026-08-22T00:00:00Z');

const dialect = new PgDialect();

/** A fixed sequence of pseudo-random numbers: every run makes the same searches. */
function random(seed: number) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

interface Measured {
  search: string;
  kind: string;
  estimate: number;
  matches: number;
}

const fixturesPresent = () => realFeedsAvailable() && fs.existsSync(path.join(FIXTURES, AUGUST_MESSAGES.file));

/** The recorded feeds through the production sync, every item listed, copied to ITEMS. */
async function loadFeeds(database: Database): Promise<{ feedItems: number; copies: number }> {
  const { pool } = database;
  await loadRealFeeds(database);
  await applyRecordedMessages(database, AUGUST_MESSAGES.file, AUGUST_MESSAGES.at);
  await pool.query('UPDATE items SET is_removed = false, removed_at = NULL WHERE is_removed');
  const feedItems = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM items')).rows[0]!.n;
  const maxId = (await pool.query<{ m: number }>('SELECT max(id)::int AS m FROM items')).rows[0]!.m;
  const { rows } = await pool.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_name = 'items' AND is_generated = 'NEVER' AND column_name <> 'id' ORDER BY ordinal_position`,
  );
  const columns = rows.map((r) => r.column_name);
  const copies = Math.ceil(ITEMS / feedItems);
  for (let k = 1; k < copies; k++) {
    const values = columns.map((c) => (c === 'external_id' ? `external_id || '-copy${k}'` : `"${c}"`)).join(', ');
    await pool.query(`INSERT INTO items (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${values} FROM items WHERE id <= ${maxId}`);
  }
  await pool.query('VACUUM (ANALYZE) items');
  return { feedItems, copies };
}

/** Searches as readers type them, from the feeds' titles (see the file's comment): `perKind` of each kind from `seed`. */
async function searches(pool: pg.Pool, seed: number, perKind: number): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ source: string; title: string }>(
    `SELECT source::text AS source, title FROM items WHERE external_id NOT LIKE '%-copy%' ORDER BY source, external_id`,
  );
  const wordsOf = (title: string) => title.toLowerCase().match(/[a-z]{3,}/g) ?? [];
  const roadmap = rows
    .filter((r) => r.source === 'roadmap')
    .map((r) => wordsOf(r.title))
    .filter((w) => w.length > 1);
  const messages = rows
    .filter((r) => r.source === 'messages')
    .map((r) => wordsOf(r.title))
    .filter((w) => w.length > 1);
  const next = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const prefix = (word: string) => word.slice(0, 3 + Math.floor(next() * (word.length - 2)));
  const made = new Map<string, string>();
  const phrase = (titles: string[][], kind: string) => {
    const words = pick(titles);
    const at = Math.floor(next() * (words.length - 1));
    made.set(`${words[at]} ${prefix(words[at + 1]!)}`, kind);
  };
  for (let i = 0; i < perKind; i++) {
    phrase(roadmap, 'phrase of a roadmap title');
    phrase(messages, 'phrase of a Message Center title');
    made.set(`${pick(pick(roadmap))} ${prefix(pick(pick(messages)))}`, 'roadmap word, Message Center prefix');
    made.set(`${pick(pick(messages))} ${prefix(pick(pick(roadmap)))}`, 'Message Center word, roadmap prefix');
  }
  return made;
}

async function measureAll(pool: pg.Pool, made: Map<string, string>): Promise<Measured[]> {
  const out: Measured[] = [];
  for (const [search, kind] of made) {
    const q = itemListQuery.parse({ search });
    const plan = searchPlan(q.search);
    if (!plan) continue;
    const estimate = await estimateRows(pool, itemWhere(q, NOW, plan));
    const count = dialect.sqlToQuery(cappedCountSql(itemWhere(q, NOW, plan, 'counted'), ITEMS * 2));
    const { rows } = await pool.query<{ n: number }>(count.sql, count.params as unknown[]);
    out.push({ search, kind, estimate, matches: rows[0]!.n });
  }
  return out;
}

async function timedMs(pool: pg.Pool, query: { sql: string; params: unknown[] }): Promise<number> {
  await pool.query(query.sql, query.params);
  const { rows } = await pool.query(`EXPLAIN (ANALYZE, SUMMARY ON) ${query.sql}`, query.params);
  const plan = rows.map((r: Record<string, string>) => r['QUERY PLAN']!);
  return planningMs(plan) + executionMs(plan);
}

/** The p-quantile (0–1) of `values`. */
const quantile = (values: number[], p: number) => (values.length ? percentile(values, p * 100) : 0);
const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * The search bench's load on the feeds' text: the api as `npm start` runs it, CLIENTS wrk connections, searches made
 * as the measured ones are but never among them (`asked`) nor repeated; a warm-up on other searches first.
 */
async function searchLoad(database: Database & { url: string; dataDir: string }, asked: ReadonlySet<string>): Promise<string> {
  if (!wrkAvailable()) return `**Load on this text**: not measured (wrk not found at ${WRK}: \`apt-get install wrk\`).`;
  const fresh = [...(await searches(database.pool, 13, LOAD_PER_KIND)).keys()].filter((s) => !asked.has(s));
  const paths = fresh.map((s) => `/api/unified/items?search=${encodeURIComponent(s)}`);
  const warm = paths.slice(0, 1000);
  const measuredPaths = paths.slice(1000);
  const pgPid = postmasterPid(database.dataDir);
  const api = await startApi({ databaseUrl: database.url });
  try {
    await runWrk({ base: api.url, paths: warm, connections: CLIENTS, seconds: WARM_SECONDS, headers: BROWSER_ENCODINGS });
    const r = await measureWrkLoad(api, pgPid, { paths: measuredPaths, connections: CLIENTS, seconds: LOAD_SECONDS, headers: BROWSER_ENCODINGS });
    const apiMs = r.apiCpuMs;
    const pgMs = r.pgCpuMs ?? 0;
    if (r.errors > 0) throw new Error(`the api answered ${r.errors} errors under the search load`);
    const repeated = r.requests > measuredPaths.length;
    return [
      `**Load on this text** (the search bench's: the api in its own production process, ${CLIENTS} wrk connections, ${LOAD_SECONDS} s after a ${WARM_SECONDS} s warm-up on other searches, answers compressed as a browser asks; ${fmt(measuredPaths.length)} searches made as above, none of them measured above${repeated ? ', **some sent twice: the load outran them**' : ', none sent twice'}):`,
      '',
      '| requests | searches/s | p50 ms | p95 ms | p99 ms | highest ms | api CPU ms per search | postgres CPU ms per search | generator cores |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${fmt(r.requests)} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | **${r.p95.toFixed(1)}** | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${apiMs.toFixed(2)} | ${pgMs.toFixed(2)} | ${r.generatorCores.toFixed(2)} |`,
      '',
      `The search target (p95 ≤ ${SEARCH_TARGET_MS} ms at 100,000 items) on the feeds' own text: **${r.p95 <= SEARCH_TARGET_MS ? 'met' : 'not met'}** (${r.p95.toFixed(1)} ms). The search bench judges it on seeded text, whose words go together independently.`,
    ].join('\n');
  } finally {
    await api.stop();
  }
}

async function run(): Promise<string> {
  if (!fixturesPresent()) return `Not measured: the recorded feeds are not at ${FIXTURES} (they are not part of the repository).`;
  return withBenchDatabase({ poolMax: 2, database: 'radar_vocabulary' }, async (database) => {
    const { pool } = database;
    process.stdout.write('  applying the recorded feeds and copying them to 100,000 items\n');
    const { feedItems, copies } = await loadFeeds(database);
    const listed = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE NOT is_removed')).rows[0]!.n;
    process.stdout.write(`  ${fmt(listed)} items; estimating and counting searches\n`);
    const measured = await measureAll(pool, await searches(pool, 7, PER_KIND));

    // A full rank window (RANK_WINDOW matches or more) is what the api counts or estimates; fewer, the page is the total.
    const windowFull = measured.filter((m) => m.matches >= RANK_WINDOW);
    const exactBand = windowFull.filter((m) => m.matches <= EXACT_SEARCH_TOTAL);
    const marginRows = MARGINS.map((margin) => {
      const counted = windowFull.filter((m) => m.estimate <= margin * EXACT_SEARCH_TOTAL);
      const needless = counted.filter((m) => m.matches > EXACT_SEARCH_TOTAL).length;
      const wrong = windowFull.filter((m) => m.estimate > margin * EXACT_SEARCH_TOTAL && m.matches <= EXACT_SEARCH_TOTAL).length;
      return `| ${margin}${margin === ESTIMATE_MARGIN ? ' (the api)' : ''} | ${fmt(counted.length)} | ${fmt(needless)} | ${wrong ? `**${wrong}**` : '0'} |`;
    });
    const ratios = measured.filter((m) => m.matches >= 50).map((m) => m.estimate / m.matches);
    const highest = [...exactBand].sort((a, b) => b.estimate - a.estimate).slice(0, 8);
    const kinds = [...new Set(measured.map((m) => m.kind))].map((kind) => {
      const of = measured.filter((m) => m.kind === kind && m.matches >= 50).map((m) => m.estimate / m.matches);
      return `| ${kind} | ${fmt(measured.filter((m) => m.kind === kind).length)} | ${quantile(of, 0.05).toFixed(2)} | ${quantile(of, 0.5).toFixed(2)} | ${quantile(of, 0.95).toFixed(2)} | ${quantile(of, 1).toFixed(2)} |`;
    });

    process.stdout.write('  timing first pages as the api reads them\n');
    // As the api reads a first page: the page first; a full window under the margin, then every match counted
    // (the estimate read between them costs planning only). These phrases hold no digit, so none can be an id.
    const pages: number[] = [];
    const counting: number[] = [];
    for (const m of measured.filter((x) => x.kind.startsWith('phrase')).slice(0, TIMED)) {
      const q = itemListQuery.parse({ search: m.search });
      const plan = searchPlan(q.search)!;
      const page = dialect.sqlToQuery(pageSql(q, NOW, plan, 0, sql`items.id`)) as { sql: string; params: unknown[] };
      let ms = await timedMs(pool, page);
      if (m.matches >= RANK_WINDOW && m.estimate <= ESTIMATE_MARGIN * EXACT_SEARCH_TOTAL) {
        ms += await timedMs(pool, dialect.sqlToQuery(countSql(itemWhere(q, NOW, plan, 'rankWindow'))) as { sql: string; params: unknown[] });
        counting.push(ms);
      }
      pages.push(ms);
    }

    process.stdout.write('  load: searches never asked before, from wrk\n');
    const loaded = await searchLoad(database, new Set(measured.map((m) => m.search)));

    return [
      `api/bench/vocabulary.bench.ts. The recorded feeds (roadmap and Message Center of 2026-01-31 and 2026-02-07, Message Center of 2026-08-22) applied through the production sync: ${fmt(feedItems)} items, every one listed, copied ${copies} times (${fmt(listed)} items; each copy keeps its item's words, so which words go together is the feeds' own), \`VACUUM (ANALYZE)\`. ${fmt(measured.length)} searches as a reader types them (a word and the prefix of the next one in a real title; a word of a roadmap title with the prefix of a word of a Message Center title, and the other way round), each with the estimate the api reads beside its true count.`,
      '',
      `**The estimate beside the truth** (searches with at least 50 matches; estimate ÷ true count):`,
      '',
      '| searches | made | 5 % | median | 95 % | highest |',
      '|---|---:|---:|---:|---:|---:|',
      ...kinds,
      '',
      `**The margin** (the api counts a search whose rank window is full when the estimate is at most margin × ${fmt(EXACT_SEARCH_TOTAL)}; past it the total is the estimate, marked approximate). Of ${fmt(windowFull.length)} searches with a full window, ${fmt(exactBand.length)} have at most ${fmt(EXACT_SEARCH_TOTAL)} matches: each must be counted, or its total is wrongly marked approximate.`,
      '',
      '| margin | searches counted | of them needlessly (more than the threshold) | wrongly approximate |',
      '|---:|---:|---:|---:|',
      ...marginRows,
      '',
      `Highest estimates of searches with at most ${fmt(EXACT_SEARCH_TOTAL)} matches: ${highest.map((m) => `\`${m.search}\` ${fmt(m.matches)} (estimated ${fmt(m.estimate)})`).join('; ')}.`,
      '',
      `**Cost on this text** (${fmt(pages.length)} phrase searches, planning + execution, warm, in process): the first page as the api reads it (the rank window's 200 newest matches, ranked) p50 ${quantile(pages, 0.5).toFixed(1)} ms, p95 ${quantile(pages, 0.95).toFixed(1)} ms, highest ${quantile(pages, 1).toFixed(1)} ms; ${fmt(counting.length)} of them with a full window put under the api's margin, whose full window is followed by a count of every match (page and count together): p50 ${quantile(counting, 0.5).toFixed(1)} ms, p95 ${quantile(counting, 0.95).toFixed(1)} ms, highest ${quantile(counting, 1).toFixed(1)} ms. Estimates of all searches with at least 50 matches: ${quantile(ratios, 0).toFixed(2)}–${quantile(ratios, 1).toFixed(2)} × the truth (median ${quantile(ratios, 0.5).toFixed(2)}).`,
      '',
      loaded,
    ].join('\n');
  });
}

const bench: Bench = { title: "Search totals on the feeds' own words", run };
export default bench;
