import { sql } from 'drizzle-orm';
import { ANALYTICS_TOP_PRODUCTS, type CurrentStatusAnalytics } from '@radar/contracts';
import type { DbOrTx } from '../../../db/client.js';

/**
 * Product breakdown over current (non-removed) items. Each item's products (roadmap) or services (Message Center)
 * go through product_mappings for their source: an active mapping renames the product to its display name (several
 * products may share one display name and are then summed), an inactive mapping leaves the product out, and a
 * product without a mapping counts under its own name. An item is counted once per display name even when two of
 * its products map to the same one.
 */
export async function currentStatusAnalytics(db: DbOrTx, limit = ANALYTICS_TOP_PRODUCTS): Promise<CurrentStatusAnalytics> {
  const result = await db.execute<{ product: string; total: number; roadmap_count: number; message_center_count: number }>(sql`
    WITH item_products AS (
      SELECT i.id, i.source, p.product,
             CASE WHEN i.source = 'roadmap' THEN 'roadmap' ELSE 'message_center' END::sync_source AS data_source
      FROM items i CROSS JOIN LATERAL unnest(i.products) AS p(product)
      WHERE NOT i.is_removed AND btrim(p.product) <> ''
    ),
    named AS (
      SELECT ip.id, ip.source, coalesce(m.display_name, ip.product) AS product
      FROM item_products ip
      LEFT JOIN product_mappings m ON m.source_product = ip.product AND m.data_source = ip.data_source
      WHERE m.id IS NULL OR m.is_active
    )
    SELECT product,
           count(DISTINCT id)::int AS total,
           count(DISTINCT id) FILTER (WHERE source = 'roadmap')::int AS roadmap_count,
           count(DISTINCT id) FILTER (WHERE source = 'messages')::int AS message_center_count
    FROM named
    GROUP BY product
    ORDER BY total DESC, product ASC
    LIMIT ${limit}
  `);
  return {
    productBreakdown: result.rows.map((r) => ({
      product: r.product,
      total: Number(r.total),
      roadmapCount: Number(r.roadmap_count),
      messageCenterCount: Number(r.message_center_count),
    })),
  };
}
