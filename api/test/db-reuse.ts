import crypto from 'node:crypto';
import pg from 'pg';
import type { Database } from '../src/db/client.js';

/**
 * Databases the tests of this process closed, reset and handed to the next test instead of a new clone of the
 * template. A clone (`CREATE DATABASE … TEMPLATE`) copies the template's 11 MB page by page: 30–60 ms on a quiet
 * machine, 0.5–1 s beside the other worker's writes, and about half the api suite's time went into them. Emptying
 * the few tables a test wrote takes a few milliseconds.
 *
 * A reused database must be one a test cannot tell from a fresh clone:
 * - every session on it is ended and it is renamed, so a pool or process a test left behind can no more reach it
 *   than a dropped database;
 * - what the sessions did is read from PostgreSQL's cumulative statistics, complete once they have ended (a backend
 *   reports its counts as it exits): a write to any system catalog (DDL, ANALYZE's statistics, a temporary table) or
 *   any VACUUM or ANALYZE, autovacuum's too, and the database is not reused; nor when a table it wrote has grown past
 *   9 pages (up to 10 the planner sizes a never-analyzed table as it sizes an empty one, so plans and row estimates
 *   stay a fresh clone's);
 * - every table written since the last reset is emptied and the fresh clone's rows put back (the built-in roles, the
 *   data version, the migrations journal), with triggers off; every sequence is set back; the GIN indexes' pending
 *   entries are merged, as a fresh clone has none.
 * A database that fails a check, or was used `MAX_USES` times, is dropped and a new clone is made.
 * `RADAR_TEST_FRESH_DB=1` turns reuse off (every test clones, as before).
 */
const MAX_USES = 100;
/** The planner treats a never-analyzed heap under 10 pages as 10 pages: such a table plans as an empty one. */
const MAX_HEAP_BYTES = 9 * 8192;
const SYSTEM_SCHEMAS = `('pg_catalog', 'information_schema', 'pg_toast')`;

interface Spare {
  name: string;
  uses: number;
  /** Rows each table had inserted, updated or deleted (cumulative statistics) when the database was last reset. */
  writes: Map<string, number>;
}

interface Baseline {
  /** Table (as regclass text) → the INSERT of its rows in a fresh clone, for the tables that have some. */
  restore: Map<string, string>;
  /** Every sequence set back to where a fresh clone has it. */
  sequences: string;
}

/** What the sessions since the last reset did, from the cumulative statistics (no table is opened). */
const PROBE = `WITH own AS (SELECT s.* FROM pg_stat_all_tables s JOIN pg_class c ON c.oid = s.relid WHERE NOT c.relisshared)
  SELECT
  (SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM own WHERE schemaname = 'pg_catalog')::text AS "catalogWrites",
  (SELECT coalesce(sum(vacuum_count + autovacuum_count + analyze_count + autoanalyze_count), 0) FROM own)::text AS maintenance,
  (SELECT json_object_agg(relid::regclass::text, n_tup_ins + n_tup_upd + n_tup_del) FROM own
    WHERE schemaname NOT IN ${SYSTEM_SCHEMAS} AND n_tup_ins + n_tup_upd + n_tup_del > 0) AS writes`;

const spares: Spare[] = [];
let baseline: Promise<Baseline> | undefined;
const reused = new Map<string, Omit<Spare, 'name'>>();

export const reuseEnabled = () => process.env.RADAR_TEST_FRESH_DB !== '1';

export function newDatabaseName(): string {
  return `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
}

export const databaseUrl = (adminUrl: string, name: string) => adminUrl.replace(/\/[^/]*$/, `/${name}`);

/**
 * Makes a database cloned and seeded right now hold what every fresh clone of this process holds. The first one is
 * recorded as that; each later one gets its rows: seeding stamps the built-in roles with the time it ran
 * (`created_at`, `updated_at`), so two clones differ, and a spare reset to the first clone's rows could be told from
 * a clone made since (a test's own first database, when no spare was at hand).
 */
export async function settleFreshClone(pool: pg.Pool): Promise<void> {
  if (!baseline) {
    baseline = captureBaseline(pool);
    await baseline;
    return;
  }
  const expected = await baseline;
  const client = await pool.connect();
  let failed = true;
  try {
    // Triggers off, as in a reset: putting the rows back must not bump the data version.
    await client.query(
      [
        'BEGIN; SET LOCAL session_replication_role = replica',
        ...[...expected.restore].flatMap(([table, insert]) => [`DELETE FROM ${table}`, insert]),
        expected.sequences,
        'COMMIT',
      ].join(';\n'),
    );
    failed = false;
  } finally {
    client.release(failed);
  }
}

/** A test closed this database (its pool ended): it may be reset for another test. */
export function release(name: string): void {
  spares.push({ name, ...(reused.get(name) ?? { uses: 1, writes: new Map() }) });
  reused.delete(name);
}

/**
 * A closed database of this process, renamed and reset to what a fresh clone holds, connected by `connect` (the
 * reset runs on the pool's first connection, which the test then finds warm); undefined when there is none that
 * passes the checks (those that fail are dropped).
 */
export async function reuseSpare(
  adminUrl: string,
  connect: (url: string) => Database,
  drop: (name: string) => Promise<void>,
): Promise<{ name: string; database: Database } | undefined> {
  const expected = baseline && (await baseline);
  for (let spare = spares.pop(); spare; spare = spares.pop()) {
    if (!expected || spare.uses >= MAX_USES) {
      await drop(spare.name);
      continue;
    }
    const name = newDatabaseName();
    if (!(await renameAway(adminUrl, spare.name, name))) {
      await drop(spare.name);
      continue;
    }
    const database = connect(databaseUrl(adminUrl, name));
    const writes = await reset(database.pool, spare, expected);
    if (writes) {
      reused.set(name, { uses: spare.uses + 1, writes });
      return { name, database };
    }
    await database.close();
    await drop(name);
  }
  return undefined;
}

/**
 * The admin connection that renames spares, kept between tests (a connection costs 10–20 ms under load); idle, it
 * never keeps the process alive.
 */
let adminPool: pg.Pool | undefined;

function admin(adminUrl: string): pg.Pool {
  if (!adminPool) {
    adminPool = new pg.Pool({ connectionString: adminUrl, max: 1, allowExitOnIdle: true });
    // An idle connection lost (the server stopped at the end of the run) must not crash the worker.
    adminPool.on('error', () => undefined);
  }
  return adminPool;
}

/**
 * Ends every session still on the database and waits until none is left: a pool that has ended may still have
 * sessions exiting, and each reports its statistics as it exits. pg_terminate_backend's own wait polls every 100 ms.
 */
export async function endSessions(adminUrl: string, name: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const { rowCount } = await admin(adminUrl).query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    if (!rowCount || tries === 500) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Ends every session still on `from` and renames it: whatever held its old name can no longer reach it. */
export async function renameAway(adminUrl: string, from: string, to: string): Promise<boolean> {
  const pool = admin(adminUrl);
  try {
    await endSessions(adminUrl, from);
    await pool.query(`ALTER DATABASE ${pg.escapeIdentifier(from)} RENAME TO ${pg.escapeIdentifier(to)}`);
    return true;
  } catch {
    // A session came back in between (a stray pool reconnecting): the database is dropped instead.
    return false;
  }
}

/** Resets the database to a fresh clone's rows; the statistics it read, or undefined when it must not be reused. */
async function reset(pool: pg.Pool, spare: Spare, expected: Baseline): Promise<Map<string, number> | undefined> {
  const client = await pool.connect();
  let reusable = false;
  try {
    // One transaction, whatever statement timeout the test asked of its pool; triggers off: emptying and refilling
    // must not bump the data version or fire any table's trigger.
    await client.query('BEGIN; SET LOCAL statement_timeout = 0; SET LOCAL session_replication_role = replica');
    const { rows } = await client.query<{ catalogWrites: string; maintenance: string; writes: Record<string, string | number> | null }>(PROBE);
    const state = rows[0]!;
    const writes = new Map(Object.entries(state.writes ?? {}).map(([table, n]) => [table, Number(n)]));
    const written = [...writes].filter(([table, n]) => spare.writes.get(table) !== n).map(([table]) => table);
    const tables = pg.escapeLiteral(`{${written.map((t) => JSON.stringify(t)).join(',')}}`);
    const { rows: sizes } = await client.query<{ largest: string }>(
      `SELECT coalesce(max(pg_relation_size(t::regclass)), 0)::text AS largest FROM unnest(${tables}::text[]) t`,
    );
    if (state.catalogWrites !== '0' || state.maintenance !== '0' || Number(sizes[0]!.largest) > MAX_HEAP_BYTES) {
      await client.query('ROLLBACK');
      return undefined;
    }
    const restored = written.filter((table) => expected.restore.has(table));
    const results = (await client.query(
      [
        ...written.map((table) => `DELETE FROM ${table}`),
        ...restored.map((table) => expected.restore.get(table)!),
        expected.sequences,
        `SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
           JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'gin' AND i.indrelid::regclass::text = ANY(${tables}::text[])`,
        'COMMIT',
      ].join(';\n'),
    )) as unknown as pg.QueryResult[];
    // The reset's own rows count in the statistics too: the next reset need not empty a table again for them.
    [...written, ...restored].forEach((table, i) => writes.set(table, (writes.get(table) ?? 0) + (results[i]?.rowCount ?? 0)));
    reusable = true;
    return writes;
  } catch {
    return undefined;
  } finally {
    // A connection left in a failed reset is not handed to the test (the caller drops the database anyway).
    client.release(!reusable);
  }
}

/**
 * A database's rows and sequences as they are now, and the statistics they are written against: `resetToSnapshot`
 * puts them back. Every session that wrote them must have ended (`endSessions`), or the statistics miss its writes.
 */
export interface Snapshot {
  baseline: Baseline;
  writes: Map<string, number>;
  uses: number;
}

export async function takeSnapshot(pool: pg.Pool): Promise<Snapshot> {
  const baseline = await captureBaseline(pool);
  const { rows } = await pool.query<{ writes: Record<string, string | number> | null }>(PROBE);
  return { baseline, writes: new Map(Object.entries(rows[0]!.writes ?? {}).map(([table, n]) => [table, Number(n)])), uses: 0 };
}

/**
 * Resets a database, whose sessions since the snapshot have all ended, to the snapshot's rows (the checks and the
 * reset of a spare's, against the snapshot instead of a fresh clone); false when it must not be reused.
 */
export async function resetToSnapshot(pool: pg.Pool, snapshot: Snapshot): Promise<boolean> {
  if (snapshot.uses >= MAX_USES) return false;
  const writes = await reset(pool, { name: '', uses: snapshot.uses, writes: snapshot.writes }, snapshot.baseline);
  if (!writes) return false;
  snapshot.writes = writes;
  snapshot.uses += 1;
  return true;
}

async function captureBaseline(pool: pg.Pool): Promise<Baseline> {
  const { rows: tables } = await pool.query<{ name: string; columns: string[] }>(
    `SELECT c.oid::regclass::text AS name,
       array_agg(quote_ident(a.attname) ORDER BY a.attnum) FILTER (WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
     WHERE n.nspname NOT IN ${SYSTEM_SCHEMAS} AND n.nspname NOT LIKE 'pg_temp%' AND c.relkind = 'r' GROUP BY c.oid ORDER BY 1`,
  );
  const restore = new Map<string, string>();
  for (const { name, columns } of tables) {
    const { rows } = await pool.query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${name} t`);
    const json = rows[0]!.rows;
    if (!json) continue;
    const list = columns.join(', ');
    restore.set(
      name,
      `INSERT INTO ${name} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM json_populate_recordset(NULL::${name}, ${pg.escapeLiteral(json)})`,
    );
  }
  const { rows: sequences } = await pool.query<{ name: string; value: string; called: boolean }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name, coalesce(last_value, start_value)::text AS value, last_value IS NOT NULL AS called
     FROM pg_sequences WHERE schemaname NOT IN ${SYSTEM_SCHEMAS} ORDER BY 1`,
  );
  return {
    restore,
    sequences: `SELECT ${sequences.map((q) => `setval(${pg.escapeLiteral(q.name)}, ${q.value}, ${q.called})`).join(', ') || '1'}`,
  };
}
