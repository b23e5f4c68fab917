/**
 * The product's PostgreSQL advisory locks: one namespace (the first key of pg_advisory_lock's two-key form) and every
 * second key in one table, so two features can never take the same lock by accident. The values never change: during
 * a rolling upgrade the old and the new version must take the same locks.
 */
export const LOCK_NAMESPACE = 0x52414441;

export const LOCK_KEYS = {
  /** A sync of one source (sync/source-lock.ts). */
  roadmapSync: 1,
  messageCenterSync: 2,
  /** Start-up schema work (db/schema-lock.ts). */
  migrations: 100,
  agendaSchema: 101,
} as const;
