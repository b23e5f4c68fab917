import type pg from 'pg';

/**
 * The data version: a counter that moves forward with every committed write to item data (items, their history
 * and links), whoever writes (sync, moderation, the import CLI, a test, a hand-written UPDATE). Deferred triggers
 * bump it once per writing transaction, at its commit (migration 0002), so a reader sees the new version exactly
 * when it sees the new data, and every process of the installation reads the same value.
 *
 * Use it to key caches of anything derived from items (the feeds do; list answers and totals can): read the
 * version BEFORE reading the data, so an answer is never cached under a version newer than its data.
 * One primary-key read of a one-row table: about as cheap as a query gets.
 */
export interface DataVersion {
  /** Moves forward with every committed write to item data. */
  version: number;
  /** When it last moved (database clock): a Last-Modified for anything derived from items. */
  changedAt: Date;
}

export async function readDataVersion(pool: pg.Pool | pg.PoolClient): Promise<DataVersion> {
  // A named (prepared) statement: every list request reads it, so each connection parses and plans it once.
  const { rows } = await pool.query<{ version: string; changed_at: Date }>({
    name: 'read-data-version',
    text: 'SELECT version, changed_at FROM data_version WHERE id = 1',
  });
  const row = rows[0];
  // The migration inserts the row; should someone delete it, the next write puts it back (the trigger upserts).
  return row ? { version: Number(row.version), changedAt: row.changed_at } : { version: 0, changedAt: new Date(0) };
}

/**
 * The version alone, for caches that need no Last-Modified: the list reads it on every request, and parsing the
 * timestamp there is measurable (docs/benchmarks.md, "Figures behind the code").
 */
export async function readDataVersionNumber(pool: pg.Pool | pg.PoolClient): Promise<number> {
  const { rows } = await pool.query<{ version: string }>({ name: 'read-data-version-number', text: 'SELECT version FROM data_version WHERE id = 1' });
  return rows[0] ? Number(rows[0].version) : 0;
}

/** The read each pool's callers share until its query is sent; gone once it is. */
const nextRead = new WeakMap<pg.Pool, Promise<number>>();

/**
 * The version as readDataVersionNumber reads it, with the calls made in two turns of the event loop sharing one query,
 * sent after all of them: every list request reads the version, and under load many arrive together. The query waits
 * for the end of the turn after the first call's (a second setImmediate), so the requests read in that turn's poll
 * join too; a process then answers about twice as many requests a read, costing no more than one extra poll of the
 * sockets (docs/benchmarks.md, "Two processes"). Never stale: a caller only joins a read whose query has not been sent
 * yet, so the query starts after the call and sees every write committed before it. Once the query is sent, callers
 * start the next one.
 */
export function currentDataVersion(pool: pg.Pool): Promise<number> {
  let read = nextRead.get(pool);
  if (!read) {
    read = new Promise<number>((resolve, reject) => {
      setImmediate(() =>
        setImmediate(() => {
          nextRead.delete(pool);
          readDataVersionNumber(pool).then(resolve, reject);
        }),
      );
    });
    nextRead.set(pool, read);
  }
  return read;
}
