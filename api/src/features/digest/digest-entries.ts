import { healthStatusLabel, PREVIEW_CHARS, relevanceReasonText } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { htmlToPlainText } from '../../lib/html.js';
import { relevanceLabel } from '../../mail/templates/RelevanceLine.js';
import type { DigestMailEntry } from '../../mail/templates/WeeklyDigestMail.js';
import type { UnifiedItemRow } from '../items/item-mapper.js';
import type { TenantScope } from '../items/item-query.js';
import { shareUrlOf } from '../items/share-link.js';
import { createRelevanceRepo } from '../relevance/relevance.repo.js';
import { readableTenantNames } from './digest.repo.js';

export type DigestRelevance = NonNullable<DigestMailEntry['relevance']>;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** One item as the digest mail lists it, with its relevance to the reader when they have one. */
export function digestEntryOf(row: UnifiedItemRow, publicUrl: string, relevance?: DigestRelevance): DigestMailEntry {
  const roadmap = row.source === 'roadmap';
  const text = htmlToPlainText(roadmap ? row.description : (row.summary ?? row.bodyHtml)).replace(/\s+/g, ' ');
  return {
    title: row.title,
    url: shareUrlOf(publicUrl, row),
    idLabel: roadmap ? `Roadmap ID ${row.externalId}` : row.externalId,
    meta: roadmap
      ? row.status
      : row.source === 'health'
        ? [row.products.join(', '), healthStatusLabel(row.status)].filter(Boolean).join(' · ')
        : row.products.join(', ') || null,
    preview: text ? cut(text, PREVIEW_CHARS) : null,
    ...(relevance ? { relevance } : {}),
  };
}

/**
 * Of each item, what an account's digest says of its relevance: the highest level among the tenants the reader may
 * see (not removed nor disabled: the list's own rule, relevance.repo.ts `highestOf`), as "High relevance" and the
 * reason, prefixed with the tenant's name when the reader sees several ("Contoso: 1,240 people used Teams …").
 * Unknown says nothing, as on the dashboard's rows; an item with no row for those tenants is absent. Only the
 * reader's own tenants are read, so one reader's digest never carries another tenant's usage.
 */
export async function digestRelevanceOf(db: DbOrTx, scope: TenantScope, itemIds: readonly number[]): Promise<Map<number, DigestRelevance>> {
  const out = new Map<number, DigestRelevance>();
  if (itemIds.length === 0) return out;
  const highest = await createRelevanceRepo(db).highestOf([...new Set(itemIds)], scope, undefined);
  if (highest.size === 0) return out;
  const names = await readableTenantNames(db, scope);
  for (const [itemId, r] of highest) {
    if (r.level === 'unknown') continue;
    const tenant = names.size > 1 ? names.get(r.tenantId) : undefined;
    out.set(itemId, { level: r.level, label: relevanceLabel(r.level), reason: relevanceReasonText(r.reason, tenant) });
  }
  return out;
}
