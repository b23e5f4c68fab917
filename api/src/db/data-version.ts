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

/**
 * Each pool's shared reads: the one callers join (not sent yet), whether one is out (sent, not back yet), and the
 * connection the reads go out on while one follows another.
 */
interface VersionReads {
  next?: Promise<number>;
  out: boolean;
  /** Sends `next`, once the read that is out is back (set while one is out). */
  sendNext?: () => void;
  client?: pg.PoolClient;
}

const reads = new WeakMap<pg.Pool, VersionReads>();

/**
 * The version as readDataVersionNumber reads it, one query shared by the calls made until it is sent: every list
 * request reads the version, and under load many arrive together. A read is sent at the end of the event-loop turn
 * after its first call's (a second setImmediate, so the requests read in that turn's poll join too), and never while
 * another read of the pool is out: then it goes as soon as that one is back, with every call made meanwhile. So a
 * process sends at most one read per round trip to the database however many requests arrive, where reads overlapping
 * each other cost every few requests a query, a database wake-up and a reply (docs/benchmarks.md, "The api's speed
 * back"). Reads that follow one another keep their connection instead of taking one from the pool and giving it back
 * each time; it goes back once no read waits. Never stale: a caller only joins a read whose query has not been sent
 * yet, so the query starts after the call and sees every write committed before it.
 */
export function currentDataVersion(pool: pg.Pool): Promise<number> {
  let state = reads.get(pool);
  if (!state) reads.set(pool, (state = { out: false }));
  const s = state;
  if (s.next) return s.next;
  const next = new Promise<number>((resolve, reject) => {
    const send = () => {
      s.next = undefined;
      s.sendNext = undefined;
      s.out = true;
      readOn(pool, s)
        .then(resolve, reject)
        .finally(() => {
          s.out = false;
          if (s.sendNext) return s.sendNext();
          // No read waits: the connection goes back to the pool.
          const client = s.client;
          s.client = undefined;
          client?.release();
        });
    };
    setImmediate(() =>
      setImmediate(() => {
        if (s.out) s.sendNext = send;
        else send();
      }),
    );
  });
  s.next = next;
  return next;
}

/** One read on the connection the reads keep (taken from the pool when there is none); a failed one is discarded. */
async function readOn(pool: pg.Pool, s: VersionReads): Promise<number> {
  const client = (s.client ??= await pool.connect());
  try {
    return await readDataVersionNumber(client);
  } catch (err) {
    s.client = undefined;
    client.release(err instanceof Error ? err : true);
    throw err;
  }
}
