import { CHANGE_VALUE_PREVIEW_CHARS, historyFieldLabel, structuredHistoryValue } from '@radar/contracts';
import { htmlToPlainText } from '../../lib/html.js';

/** Bookkeeping fields the change history ignores; isRemoved is told as removal/restore. */
const HIDDEN_FIELDS = new Set(['lastModified', 'lastUpdated', 'modifiedDate', 'isRemoved', 'reason']);

/** The reader's name of a history field (shared with the dashboard: @radar/contracts history-fields.ts). */
export const fieldLabel = historyFieldLabel;

export function isShownField(field: string): boolean {
  return !HIDDEN_FIELDS.has(field);
}

function truncate(text: string, max = CHANGE_VALUE_PREVIEW_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A history value as one readable line, cut at the 300-character preview; `field` names structured fields (timing). */
export function formatValue(value: unknown, field?: string): string {
  if (value === null || value === undefined || value === '') return '(none)';
  const structured = field ? structuredHistoryValue(field, value) : null;
  if (structured !== null) return truncate(structured);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) {
      return new Date(value).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    }
    return truncate(htmlToPlainText(value).replace(/\s+/g, ' ')) || '(none)';
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    const parts = value.map((v) => (v && typeof v === 'object' ? ('name' in v ? String((v as { name: unknown }).name) : JSON.stringify(v)) : String(v)));
    return truncate(parts.join(', '));
  }
  return truncate(JSON.stringify(value));
}
