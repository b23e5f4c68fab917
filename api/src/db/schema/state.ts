/** Installation state: small key/values, the data version and the remote registry. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgSequence, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Small key/value state of the installation (e.g. whether demo data is loaded). */
export const appState = pgTable('app_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * The data version (api/src/db/data-version.ts): one row whose counter every committed write to item data
 * (items, item_history, message_roadmap_links) moves forward, bumped by triggers in the writing transaction
 * (migration 0002). Caches of anything derived from items key on it.
 */
export const dataVersion = pgTable(
  'data_version',
  {
    id: smallint('id').primaryKey().default(1),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    changedAt: ts('changed_at').notNull().defaultNow(),
  },
  (t) => [check('data_version_single_row', sql`${t.id} = 1`)],
);

/** Moves forward with every change of a remote's URL: the shell page and its CSP are cached per value (remotes.registry.ts). */
export const remotesRevision = pgSequence('remotes_revision_seq');

/**
 * The remote registry: which build of each remote (its mf-manifest.json URL) the shell loads. Rows start
 * from REMOTE_*_URL (`source` 'config', refreshed from the configuration at every start); an admin's change sets
 * 'admin' and is never overwritten by the configuration again.
 */
export const remotes = pgTable(
  'remotes',
  {
    name: text('name').primaryKey(),
    url: text('url').notNull(),
    previousUrl: text('previous_url'),
    source: text('source').notNull().default('config'),
    revision: bigint('revision', { mode: 'number' })
      .notNull()
      .default(sql`nextval('remotes_revision_seq')`),
    lastLoadedAt: ts('last_loaded_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('remotes_name_known', sql`${t.name} IN ('dashboard', 'admin', 'digest')`),
    check('remotes_source_known', sql`${t.source} IN ('config', 'admin')`),
  ],
);

/**
 * Rate-limit counts shared by every api process (api/src/http/rate-limit-hits.repo.ts): one row per limiter and key
 * (a client address or a user), its hits in the window that ends at `resets_at`. Rows past `resets_at` are swept hourly.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    limiter: text('limiter').notNull(),
    key: text('key').notNull(),
    hits: integer('hits').notNull(),
    resetsAt: ts('resets_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.limiter, t.key] }), index('rate_limit_hits_resets_at_idx').on(t.resetsAt)],
);
