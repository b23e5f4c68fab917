import { expect } from '@jest/globals';
import { currentStatusAnalytics, type ProductBreakdownEntry } from '@radar/contracts';
import type { Db } from '../src/db/client.js';
import { insertMessage, insertRoadmapItem } from './factories.js';

/**
 * The product catalogue the analytics and product-mapping tests share.
 * Roadmap: Teams x3 (one also Outlook), SharePoint x2, Viva x1, one removed Teams item (never counted).
 * Message Center: Teams x2, Exchange Online x2, "SharePoint Online" x1, Viva x1.
 */
export async function insertProductCatalog(db: Db): Promise<void> {
  await insertRoadmapItem(db, { products: ['Microsoft Teams'] });
  await insertRoadmapItem(db, { products: ['Microsoft Teams', 'Outlook'] });
  await insertRoadmapItem(db, { products: ['Microsoft Teams'] });
  await insertRoadmapItem(db, { products: ['SharePoint'] });
  await insertRoadmapItem(db, { products: ['SharePoint'] });
  await insertRoadmapItem(db, { products: ['Microsoft Viva'] });
  await insertRoadmapItem(db, { products: ['Microsoft Teams'], isRemoved: true });
  await insertMessage(db, { products: ['Microsoft Teams'] });
  await insertMessage(db, { products: ['Microsoft Teams', 'Exchange Online'] });
  await insertMessage(db, { products: ['Exchange Online'] });
  await insertMessage(db, { products: ['SharePoint Online'] });
  await insertMessage(db, { products: ['Microsoft Viva'] });
}

/** GET /api/admin/current-status-analytics as the given admin agent, read through its contract. */
export async function productBreakdown(admin: { get: (url: string) => PromiseLike<{ status: number; body: unknown }> }): Promise<ProductBreakdownEntry[]> {
  const res = await admin.get('/api/admin/current-status-analytics');
  expect(res.status).toBe(200);
  return currentStatusAnalytics.parse(res.body).productBreakdown;
}
