import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { RemoteKey } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { remotes } from '../../db/schema/index.js';

export type RemoteRow = typeof remotes.$inferSelect;

const NEXT_REVISION = sql`nextval('remotes_revision_seq')`;

/**
 * The registry's revision: the largest row revision (every URL change takes a fresh value of a sequence). One
 * aggregate over three rows, read on every shell page; a prepared statement so each connection plans it once.
 */
export async function readRegistryRevision(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ revision: string | null }>({ name: 'read-remotes-revision', text: 'SELECT max(revision) AS revision FROM remotes' });
  return Number(rows[0]?.revision ?? 0);
}

export function createRemotesRepo(db: DbOrTx) {
  return {
    list(): Promise<RemoteRow[]> {
      return db.select().from(remotes);
    },

    async get(name: RemoteKey): Promise<RemoteRow | undefined> {
      const [row] = await db.select().from(remotes).where(eq(remotes.name, name));
      return row;
    },

    /**
     * The configured URLs (REMOTE_*_URL or the api's own bundles) into rows the configuration owns: a new row, or a
     * changed configuration of a row no admin has changed. An admin's change is never overwritten.
     */
    async syncFromConfig(urls: Record<RemoteKey, string>, now: Date): Promise<void> {
      for (const [name, url] of Object.entries(urls)) {
        await db
          .insert(remotes)
          .values({ name, url, source: 'config', updatedAt: now })
          .onConflictDoUpdate({
            target: remotes.name,
            set: { url, previousUrl: sql`${remotes.url}`, revision: NEXT_REVISION, lastLoadedAt: null, updatedAt: now },
            setWhere: sql`${remotes.source} = 'config' AND ${remotes.url} <> ${url}`,
          });
      }
    },

    /**
     * An admin points `name` at `url`; the URL it had moves to previousUrl (`currentUrl` is that URL when the row does
     * not exist yet). Setting the URL it already has changes nothing.
     */
    async setUrl(name: RemoteKey, url: string, currentUrl: string, now: Date): Promise<RemoteRow> {
      await db
        .insert(remotes)
        .values({ name, url, previousUrl: currentUrl === url ? null : currentUrl, source: 'admin', updatedAt: now })
        .onConflictDoUpdate({
          target: remotes.name,
          set: { url, previousUrl: sql`${remotes.url}`, source: 'admin', revision: NEXT_REVISION, lastLoadedAt: null, updatedAt: now },
          setWhere: sql`${remotes.url} <> ${url}`,
        });
      return returned(await this.get(name));
    },

    /** Swaps url and previousUrl; undefined when there is no previous URL. */
    async rollback(name: RemoteKey, now: Date): Promise<RemoteRow | undefined> {
      const [row] = await db
        .update(remotes)
        .set({
          url: sql`${remotes.previousUrl}`,
          previousUrl: sql`${remotes.url}`,
          source: 'admin',
          revision: NEXT_REVISION,
          lastLoadedAt: null,
          updatedAt: now,
        })
        .where(sql`${remotes.name} = ${name} AND ${remotes.previousUrl} IS NOT NULL`)
        .returning();
      return row;
    },

    /**
     * A browser loaded `name` from `url`: recorded when that is still the registry's URL and the last record is at
     * least `minIntervalSeconds` old, so every page load costs at most one cheap conditional UPDATE that matches nothing.
     */
    async markLoaded(name: RemoteKey, url: string, now: Date, minIntervalSeconds: number): Promise<boolean> {
      const since = new Date(now.getTime() - minIntervalSeconds * 1000);
      const rows = await db
        .update(remotes)
        .set({ lastLoadedAt: now })
        .where(
          sql`${remotes.name} = ${name} AND ${remotes.url} = ${url} AND (${remotes.lastLoadedAt} IS NULL OR ${remotes.lastLoadedAt} <= ${since.toISOString()}::timestamptz)`,
        )
        .returning({ name: remotes.name });
      return rows.length > 0;
    },
  };
}
