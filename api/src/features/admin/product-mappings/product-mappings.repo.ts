import { asc, eq, sql } from 'drizzle-orm';
import { ALWAYS_LICENSED_PRODUCTS, productFamilyOf, rulePlansOf, type ProductFamily, type ProductMapping } from '@radar/contracts';
import type { DbOrTx } from '../../../db/client.js';
import { productMappings } from '../../../db/schema/index.js';

type Row = typeof productMappings.$inferSelect;

function toContract(row: Row): ProductMapping {
  return {
    id: row.id,
    sourceProduct: row.sourceProduct,
    dataSource: row.dataSource,
    displayName: row.displayName,
    isActive: row.isActive,
    family: (row.family as ProductFamily | null) ?? productFamilyOf(row.sourceProduct),
    familySource: row.family ? 'admin' : 'rule',
    ruleFamily: productFamilyOf(row.sourceProduct),
    licence: licenceOf(row),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Which plans license the product: the admin's, the table's, every tenant's, or none known. */
function licenceOf(row: Row): ProductMapping['licence'] {
  if (row.licencePlans?.length) return { source: 'admin', plans: row.licencePlans };
  const plans = rulePlansOf(row.sourceProduct);
  if (plans.length) return { source: 'rule', plans };
  if ((ALWAYS_LICENSED_PRODUCTS as readonly string[]).includes(row.sourceProduct)) return { source: 'always', plans: [] };
  return { source: 'unknown', plans: [] };
}

/** The admins' plans per product (they replace the licence table's for that product). */
export async function licenceOverrides(db: DbOrTx): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ product: productMappings.sourceProduct, plans: productMappings.licencePlans })
    .from(productMappings)
    .where(sql`${productMappings.licencePlans} IS NOT NULL`);
  return new Map(rows.map((r) => [r.product, r.plans ?? []]));
}

export function createProductMappingsRepo(db: DbOrTx) {
  return {
    async list(): Promise<ProductMapping[]> {
      const rows = await db
        .select()
        .from(productMappings)
        .orderBy(asc(productMappings.dataSource), sql`lower(${productMappings.sourceProduct})`, asc(productMappings.id));
      return rows.map(toContract);
    },

    /**
     * One mapping per distinct product of current items in each source (roadmap products -> 'roadmap', Message
     * Center services -> 'message_center'), display name = the product. Existing mappings are left untouched, so
     * running it again only adds products that appeared since.
     */
    async initialize(now: Date): Promise<{ created: number; total: number }> {
      const inserted = await db.execute(sql`
        INSERT INTO product_mappings (source_product, data_source, display_name, is_active, created_at, updated_at)
        SELECT DISTINCT p.product,
               CASE WHEN i.source = 'roadmap' THEN 'roadmap' ELSE 'message_center' END::sync_source,
               p.product, true, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
        FROM items i CROSS JOIN LATERAL unnest(i.products) AS p(product)
        WHERE NOT i.is_removed AND btrim(p.product) <> ''
        ON CONFLICT (source_product, data_source) DO NOTHING
      `);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(productMappings);
      return { created: inserted.rowCount ?? 0, total: count?.n ?? 0 };
    },

    async update(
      id: number,
      patch: { displayName?: string; isActive?: boolean; family?: ProductFamily | null; licencePlans?: string[] | null },
      now: Date,
    ): Promise<ProductMapping | undefined> {
      const [row] = await db
        .update(productMappings)
        .set({ ...patch, updatedAt: now })
        .where(eq(productMappings.id, id))
        .returning();
      return row ? toContract(row) : undefined;
    },

    async remove(id: number): Promise<boolean> {
      const rows = await db.delete(productMappings).where(eq(productMappings.id, id)).returning({ id: productMappings.id });
      return rows.length > 0;
    },
  };
}
