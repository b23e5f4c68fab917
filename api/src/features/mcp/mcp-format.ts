import { healthStatusLabel, type ChangeHistoryEntry, type McpItem, type McpRelevance } from '@radar/contracts';
import { providerLink } from '../items/items.export.js';
import { htmlToPlainText } from '../../lib/html.js';
import type { UnifiedItemRow } from '../items/item-mapper.js';
import { shareUrlOf } from '../items/share-link.js';
import { isShownField } from '../subscriptions/change-format.js';

const SUMMARY_CHARS = 500;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Plain text of an item's description (roadmap) or summary/body (Message Center, Service Health: its impact). */
export function itemText(row: UnifiedItemRow): string {
  return htmlToPlainText(row.source === 'roadmap' ? row.description : (row.summary ?? row.bodyHtml));
}

/**
 * An item as the tools answer it: facts, plain text (no HTML for an agent to strip), and both links; with `relevance`
 * for a caller with an identity (null: none for their tenants), left out for one without.
 */
export function toMcpItem(row: UnifiedItemRow, publicUrl: string, relevance?: McpRelevance | null): McpItem {
  const text = itemText(row);
  return {
    id: row.externalId,
    source: row.source,
    title: row.title,
    status: (row.source === 'health' ? healthStatusLabel(row.status) : row.status) ?? null,
    products: [...row.products],
    tags: [...row.tags],
    releaseDate: row.releaseDate ?? null,
    previewDate: row.previewDate ?? null,
    createdDate: iso(row.createdDate),
    modifiedDate: iso(row.modifiedDate),
    isRemoved: row.isRemoved,
    summary: text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS - 1).trimEnd()}…` : text,
    url: shareUrlOf(publicUrl, row),
    providerUrl: providerLink(row),
    ...(relevance === undefined ? {} : { relevance }),
  };
}

/** A change history entry as field changes (previous → new), bookkeeping fields left out. */
export function toMcpChange(entry: Pick<ChangeHistoryEntry, 'changeDate' | 'changeType' | 'changedFields' | 'previousValues' | 'newValues'>) {
  const fields = entry.changeType === 'new' ? Object.keys(entry.newValues) : entry.changedFields;
  return {
    date: entry.changeDate,
    type: entry.changeType,
    changes: fields
      .filter((field) => isShownField(field) || field === 'isRemoved')
      .map((field) => ({ field, from: entry.previousValues[field] ?? null, to: entry.newValues[field] ?? null })),
  };
}
