import { lt, sql, type SQL } from 'drizzle-orm';
import type { Source } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { relevanceMoves } from '../../db/schema/index.js';

/** How long before a move the item's own change of products or services is looked for (relevance-alerts.ts). */
const NAMES_CHANGE_WINDOW = sql`interval '1 day'`;
/** How far back a move's earlier moves are read, to keep a level going back and forth from alerting each time. */
export const MOVE_MEMORY_DAYS = 7;

/**
 * One move of an item's level for a tenant (relevance_moves, written by a trigger on item_relevance) with what an
 * alert needs: the item, the tenant's name, the row as it is now (a tenant removed or disabled since has none), whether
 * the item's own products or services changed just before (its change alert told it), and the pair's earlier moves.
 */
export interface RelevanceMove {
  id: number;
  itemRowId: number;
  tenantId: number;
  tenantName: string;
  fromLevel: number;
  toLevel: number;
  movedAt: Date;
  source: Source;
  externalId: string;
  title: string;
  /** The row as it is now; null when there is none any more. */
  currentLevel: number | null;
  currentReason: string | null;
  /** The item's products or services changed in the day before the move (so the refresh that moved it followed that). */
  namesChanged: boolean;
  /** The pair's moves in the MOVE_MEMORY_DAYS before this one, oldest first. */
  earlier: { fromLevel: number; toLevel: number }[];
}

type MoveRow = {
  id: string | number;
  item_id: number;
  tenant_id: number;
  tenant_name: string;
  from_level: number;
  to_level: number;
  moved_at: Date | string;
  source: Source;
  external_id: string;
  title: string;
  current_level: number | null;
  current_reason: string | null;
  names_changed: boolean;
  earlier: { from_level: number; to_level: number }[] | null;
};

/** The moves `m` of `chosen` (a statement giving ids), with their item, tenant, current row and history. */
function enriched(chosen: SQL): SQL {
  return sql`SELECT m.id, m.item_id, m.tenant_id, t.name AS tenant_name, m.from_level, m.to_level, m.moved_at,
      i.source, i.external_id, i.title, r.level AS current_level, r.reason AS current_reason,
      EXISTS (SELECT 1 FROM item_history h WHERE h.item_id = m.item_id AND h.change_type = 'changed'
        AND h.changed_fields && ARRAY['products', 'services']::text[]
        AND h.change_date > m.moved_at - ${NAMES_CHANGE_WINDOW} AND h.change_date <= m.moved_at) AS names_changed,
      (SELECT json_agg(json_build_object('from_level', e.from_level, 'to_level', e.to_level) ORDER BY e.moved_at, e.id)
        FROM relevance_moves e WHERE e.item_id = m.item_id AND e.tenant_id = m.tenant_id
        AND e.moved_at >= m.moved_at - make_interval(days => ${MOVE_MEMORY_DAYS}) AND (e.moved_at, e.id) < (m.moved_at, m.id)) AS earlier
    FROM relevance_moves m
    JOIN items i ON i.id = m.item_id
    JOIN tenants t ON t.id = m.tenant_id AND t.removed_at IS NULL
    LEFT JOIN item_relevance r ON r.item_id = m.item_id AND r.tenant_id = m.tenant_id
    WHERE m.id IN (${chosen})
    ORDER BY m.moved_at, m.id`;
}

function toMove(r: MoveRow): RelevanceMove {
  return {
    id: Number(r.id),
    itemRowId: r.item_id,
    tenantId: r.tenant_id,
    tenantName: r.tenant_name,
    fromLevel: r.from_level,
    toLevel: r.to_level,
    movedAt: new Date(r.moved_at),
    source: r.source,
    externalId: r.external_id,
    title: r.title,
    currentLevel: r.current_level,
    currentReason: r.current_reason,
    namesChanged: r.names_changed,
    earlier: (r.earlier ?? []).map((e) => ({ fromLevel: e.from_level, toLevel: e.to_level })),
  };
}

/**
 * Takes up to `limit` moves the instant alerts have not taken yet, oldest first, inside the caller's transaction:
 * each is taken once even with two job processes (the rows are locked; the other run skips them). `taken` counts
 * them all; `moves` leaves out those of a tenant removed since, and is empty without `read` (no search wants them).
 */
export async function claimPendingMoves(
  tx: DbOrTx,
  now: Date,
  limit: number,
  opts: { read: boolean } = { read: true },
): Promise<{ taken: number; moves: RelevanceMove[] }> {
  const { rows: ids } = await tx.execute<{ id: string }>(
    sql`UPDATE relevance_moves SET alerted_at = ${now}
      WHERE id IN (SELECT id FROM relevance_moves WHERE alerted_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id`,
  );
  if (ids.length === 0 || !opts.read) return { taken: ids.length, moves: [] };
  const { rows } = await tx.execute<MoveRow>(enriched(sql`SELECT unnest(${sql.param(ids.map((r) => Number(r.id)))}::bigint[])`));
  return { taken: ids.length, moves: rows.map(toMove) };
}

/** The moves of a digest's period [from, to), oldest first. */
export async function movesInPeriod(db: DbOrTx, from: Date, to: Date): Promise<RelevanceMove[]> {
  const { rows } = await db.execute<MoveRow>(enriched(sql`SELECT id FROM relevance_moves WHERE moved_at >= ${from} AND moved_at < ${to}`));
  return rows.map(toMove);
}

/** The names of these tenants, by id (for the tenant an alert item's relevance is of). */
export async function tenantNamesOf(db: DbOrTx, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.execute<{ id: number; name: string }>(sql`SELECT id, name FROM tenants WHERE id = ANY(${sql.param([...new Set(ids)])}::integer[])`);
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** Deletes moves older than `before` (a digest looks back a week at most, the memory of moves as far). */
export async function pruneRelevanceMoves(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(relevanceMoves).where(lt(relevanceMoves.movedAt, before));
}
