import { stringify } from 'csv-stringify';
import { pipeline, Readable } from 'node:stream';
import {
  formatTiming,
  healthStatusLabel,
  PRODUCT_FAMILY_LABELS,
  RELEVANCE_LEVEL_LABELS,
  relevanceReasonText,
  SOURCE_LABELS,
  SUITE_SLUG,
  TRIAGE_PRIORITY_LABELS,
  triageStateLabel,
  type ProductFamily,
  type RelevanceLevel,
  type TriageClosedReason,
  type TriagePriority,
  type TriageState,
} from '@radar/contracts';
import { htmlToPlainText } from '../../lib/html.js';
import type { UnifiedItemRow } from './item-mapper.js';

/**
 * CSV export of the unified list (RFC 4180: CRLF line ends, fields quoted when they hold a quote, comma or line
 * break, quotes doubled), UTF-8 with a BOM so Excel detects the encoding. Cells that a spreadsheet would run as a
 * formula (starting with = + - @, tab or carriage return) get a leading single quote (OWASP CSV injection advice).
 */

export const EXPORT_COLUMNS = [
  'ID',
  'Source',
  'Title',
  'Status',
  'Product/Service',
  'Tags',
  'Release Date',
  'Release Date Moves',
  'Release Date Shift (months)',
  'Preview Date',
  'Preview Date Moves',
  'Preview Date Shift (months)',
  'Dates Last Moved',
  'Timing of Change',
  'Rollout Windows',
  'Rollout Moves',
  'Product Families',
  'Tenants',
  'Created',
  'Last Modified',
  'Removed/Expired',
  'Link',
  'Summary/Description',
] as const;

export function exportFileName(now: Date): string {
  return `${SUITE_SLUG}-dashboard-${now.toISOString().slice(0, 10)}.csv`;
}

const FORMULA_START = /^[=+\-@\t\r]/;
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** UTC, in a form spreadsheets parse as a date-time. */
const csvDate = (d: Date | null): string => (d ? d.toISOString().slice(0, 19).replace('T', ' ') : '');

export function providerLink(row: Pick<UnifiedItemRow, 'source' | 'externalId'>): string {
  const id = encodeURIComponent(row.externalId);
  if (row.source === 'roadmap') return `https://www.microsoft.com/microsoft-365/roadmap?id=${id}`;
  if (row.source === 'health') return `https://admin.microsoft.com/Adminportal/Home#/servicehealth/:/alerts/${id}`;
  return `https://admin.microsoft.com/Adminportal/Home#/MessageCenter/:/messages/${id}`;
}

export function exportRecord(row: UnifiedItemRow, tenantNames: ReadonlyMap<number, string> = new Map()): (string | number)[] {
  const isRoadmap = row.source === 'roadmap';
  return [
    row.externalId,
    SOURCE_LABELS[row.source],
    row.title,
    (row.source === 'health' ? healthStatusLabel(row.status) : row.status) ?? '',
    row.products.join(', '),
    row.tags.join(', '),
    row.releaseDate ?? '',
    // GA and preview slips are roadmap-only (blank for messages; a post's rollout moves have their own column), 0 for
    // a roadmap item whose dates never moved. Numbers, not strings: our own integers need no formula guard, and "-2"
    // must stay a number in a spreadsheet.
    isRoadmap ? row.gaMoves : '',
    isRoadmap ? row.gaShiftMonths : '',
    row.previewDate ?? '',
    isRoadmap ? row.previewMoves : '',
    isRoadmap ? row.previewShiftMonths : '',
    csvDate(row.releaseMovedAt),
    // When the change reaches tenants: a post's earliest window start, a roadmap item's GA month (YYYY-MM-DD).
    row.timingStart ?? '',
    formatTiming(row.timing ?? []),
    isRoadmap ? '' : row.gaMoves,
    row.productFamilies.map((f) => PRODUCT_FAMILY_LABELS[f as ProductFamily] ?? f).join(', '),
    // The tenants that received a post, of those the caller may see (names, as the dialog lists them).
    row.tenantIds.flatMap((id) => tenantNames.get(id) ?? []).join(', '),
    csvDate(row.createdDate),
    csvDate(row.modifiedDate),
    row.isRemoved ? csvDate(row.removedAt) : '',
    providerLink(row),
    htmlToPlainText(isRoadmap ? row.description : (row.summary ?? row.bodyHtml)),
  ];
}

/**
 * The relevance columns, for signed-in callers only (a reason tells a tenant's usage): the item's highest level among
 * the tenants in scope, as the list's chip shows it, and its reason; both blank when it has none there.
 */
export const RELEVANCE_EXPORT_COLUMNS = ['Relevance', 'Relevance Reason'] as const;

/** An item's relevance as the export shows it; `tenantName` when the caller sees several tenants (the reason's prefix). */
export interface ExportRelevance {
  level: RelevanceLevel;
  reason: string;
  tenantName: string | null;
}

export function relevanceCells(relevance: ExportRelevance | undefined): string[] {
  return relevance ? [RELEVANCE_LEVEL_LABELS[relevance.level], relevanceReasonText(relevance.reason, relevance.tenantName)] : ['', ''];
}

/** The relevance of a batch of rows, by item id (items with none are absent). */
export type ExportRelevanceOf = (itemIds: number[]) => Promise<Map<number, ExportRelevance>>;

/** The triage columns, for signed-in callers only (triage is the team's own). */
export const TRIAGE_EXPORT_COLUMNS = ['State', 'Owner', 'Due', 'Priority'] as const;

/** An item's triage records as the export shows them (a post several tenants received has one per tenant). */
export interface ExportTriage {
  tenantName: string | null;
  state: TriageState;
  closedReason: TriageClosedReason | null;
  ownerName: string | null;
  dueDate: string | null;
  priority: TriagePriority;
}

/** One cell per triage column: the value, or "Tenant: value; …" when the item is triaged per tenant. */
export function triageCells(records: readonly ExportTriage[]): string[] {
  const cell = (value: (r: ExportTriage) => string) =>
    records.length === 1 && records[0] ? value(records[0]) : records.map((r) => `${r.tenantName ?? 'All'}: ${value(r) || '—'}`).join('; ');
  return [
    cell((r) => triageStateLabel(r.state, r.closedReason)),
    cell((r) => r.ownerName ?? ''),
    cell((r) => r.dueDate ?? ''),
    cell((r) => TRIAGE_PRIORITY_LABELS[r.priority]),
  ];
}

/** The triage of a batch of rows, by item id. */
export type ExportTriageOf = (itemIds: number[]) => Promise<Map<number, ExportTriage[]>>;

/** What a signed-in caller's export adds to each row, each read once per batch: its relevance, then its triage. */
export interface ExportMemberColumns {
  relevanceOf: ExportRelevanceOf;
  triageOf: ExportTriageOf;
}

/**
 * A readable CSV stream over batches of rows (pull-based: a slow client slows the database reads, not memory). With
 * `member` (a signed-in caller) each row ends with its relevance and triage columns, read once per batch (one query
 * each for up to a batch of rows, never one per row).
 */
export function csvStream(
  batches: AsyncIterable<UnifiedItemRow[]>,
  tenantNames: ReadonlyMap<number, string> = new Map(),
  member?: ExportMemberColumns,
): Readable {
  const records = Readable.from(
    (async function* () {
      for await (const batch of batches) {
        if (!member) {
          for (const row of batch) yield exportRecord(row, tenantNames);
          continue;
        }
        const ids = batch.map((row) => row.id);
        const [relevance, triage] = await Promise.all([member.relevanceOf(ids), member.triageOf(ids)]);
        for (const row of batch) {
          yield [...exportRecord(row, tenantNames), ...relevanceCells(relevance.get(row.id)), ...triageCells(triage.get(row.id) ?? [])];
        }
      }
    })(),
  );
  const stringifier = stringify({
    bom: true,
    header: true,
    columns: member ? [...EXPORT_COLUMNS, ...RELEVANCE_EXPORT_COLUMNS, ...TRIAGE_EXPORT_COLUMNS] : [...EXPORT_COLUMNS],
    record_delimiter: '\r\n',
    quoted_match: /[\r\n]/,
    cast: { string: neutralizeFormula },
  });
  // pipeline (not pipe): when the response is closed early the stringifier is destroyed, and that destroys the
  // record source too, which ends the cursor transaction and returns its connection to the pool.
  return pipeline(records, stringifier, () => undefined);
}
