import { and, eq, lt, sql } from 'drizzle-orm';
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { DbOrTx } from '../db/client.js';
import { rateLimitHits } from '../db/schema/index.js';

/**
 * An express-rate-limit store whose counts live in PostgreSQL (table rate_limit_hits), so every api process on every
 * machine that shares the database shares one count per limiter and key. Each hit is one atomic UPSERT: a fixed
 * window that starts at the first hit and, once over, starts again at the next one. Times are the database's
 * (`now()`), one clock for every process. Expired rows are swept by the hourly auth cleanup (sweepRateLimitHits).
 */
export class PostgresRateLimitStore implements Store {
  /** Counts are not in this process's memory. */
  readonly localKeys = false;
  private windowMs = 60_000;

  constructor(
    private readonly db: DbOrTx,
    /** Names the limiter: keeps its counts apart from every other limiter's in the shared table. */
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const [row] = await this.db
      .select({ hits: rateLimitHits.hits, resetsAt: rateLimitHits.resetsAt })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.limiter, this.prefix), eq(rateLimitHits.key, key), sql`${rateLimitHits.resetsAt} > now()`));
    return row ? { totalHits: row.hits, resetTime: row.resetsAt } : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const window = sql`make_interval(secs => ${this.windowMs / 1000})`;
    const { rows } = await this.db.execute<{ hits: number; resets_at: Date }>(sql`
      INSERT INTO rate_limit_hits (limiter, key, hits, resets_at)
      VALUES (${this.prefix}, ${key}, 1, now() + ${window})
      ON CONFLICT (limiter, key) DO UPDATE SET
        hits = CASE WHEN rate_limit_hits.resets_at <= now() THEN 1 ELSE rate_limit_hits.hits + 1 END,
        resets_at = CASE WHEN rate_limit_hits.resets_at <= now() THEN now() + ${window} ELSE rate_limit_hits.resets_at END
      RETURNING hits, resets_at`);
    const row = rows[0];
    if (!row) throw new Error('rate_limit_hits upsert returned no row');
    return { totalHits: Number(row.hits), resetTime: new Date(row.resets_at) };
  }

  async decrement(key: string): Promise<void> {
    await this.db
      .update(rateLimitHits)
      .set({ hits: sql`greatest(${rateLimitHits.hits} - 1, 0)` })
      .where(and(eq(rateLimitHits.limiter, this.prefix), eq(rateLimitHits.key, key)));
  }

  async resetKey(key: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(and(eq(rateLimitHits.limiter, this.prefix), eq(rateLimitHits.key, key)));
  }
}

/** Removes the counts whose window is over (they would start again at the next hit anyway); returns how many. */
export async function sweepRateLimitHits(db: DbOrTx): Promise<number> {
  const removed = await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.resetsAt, sql`now()`))
    .returning({ key: rateLimitHits.key });
  return removed.length;
}
