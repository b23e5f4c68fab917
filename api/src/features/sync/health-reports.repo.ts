import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { healthReports, items, itemTenants } from '../../db/schema/index.js';

/** The Graph status of an issue whose post-incident report Microsoft has published. */
export const REPORT_PUBLISHED_STATUS = 'postIncidentReviewPublished';

/** Issues the tenant received whose report is published and not kept yet. */
export async function wantedReports(db: DbOrTx, tenantId: number): Promise<{ itemId: number; issueId: string }[]> {
  return db
    .select({ itemId: items.id, issueId: items.externalId })
    .from(items)
    .innerJoin(itemTenants, and(eq(itemTenants.itemId, items.id), eq(itemTenants.tenantId, tenantId)))
    .leftJoin(healthReports, eq(healthReports.itemId, items.id))
    .where(and(eq(items.source, 'health'), eq(items.status, REPORT_PUBLISHED_STATUS), isNull(healthReports.itemId)));
}

export async function storeReport(db: DbOrTx, itemId: number, file: { body: Buffer; contentType: string | null }, now: Date): Promise<void> {
  await db
    .insert(healthReports)
    .values({ itemId, content: file.body, contentType: file.contentType, size: file.body.length, fetchedAt: now })
    .onConflictDoNothing();
}

/** The kept report's facts (not its bytes). */
export async function reportInfo(db: DbOrTx, itemId: number): Promise<{ contentType: string | null; size: number; fetchedAt: Date } | null> {
  const [row] = await db
    .select({ contentType: healthReports.contentType, size: healthReports.size, fetchedAt: healthReports.fetchedAt })
    .from(healthReports)
    .where(eq(healthReports.itemId, itemId));
  return row ?? null;
}

export async function reportFile(db: DbOrTx, itemId: number): Promise<{ content: Buffer; contentType: string | null } | null> {
  const [row] = await db
    .select({ content: healthReports.content, contentType: healthReports.contentType })
    .from(healthReports)
    .where(eq(healthReports.itemId, itemId));
  return row ?? null;
}
