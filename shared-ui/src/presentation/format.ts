import { UTCDate } from '@date-fns/utc';
import { format, formatDistance, isValid } from 'date-fns';
import { CHANGE_VALUE_PREVIEW_CHARS, structuredHistoryValue } from '@radar/contracts';

/** Where a date is shown: the reader's zone, or UTC (a server render: see useDisplayTimeZone). */
export type DisplayTimeZone = 'local' | 'UTC';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Release-date text: remove 'CY' and 'and', keep a four-digit year, shorten 'Month YYYY'
 * ('March CY2026' -> 'Mar 2026', 'CY 2025' -> '2025'); missing -> 'TBD'.
 */
export function formatReleaseDate(value: string | null | undefined): string {
  if (!value || !value.trim()) return 'TBD';
  const cleaned = value
    .replace(/CY\s*/g, ' ')
    .replace(/\band\b/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!cleaned) return 'TBD';
  const monthYear = /^([A-Za-z]+)\.?\s+(\d{4})$/.exec(cleaned);
  if (monthYear) {
    const index = MONTHS.indexOf(monthYear[1].slice(0, 3).toLowerCase());
    if (index >= 0) return `${SHORT_MONTHS[index]} ${monthYear[2]}`;
  }
  return cleaned;
}

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

// Dates and counts are formatted without Intl/toLocale*: the browser's first Intl call loads its ICU locale data
// and every toLocaleDateString builds a new formatter, both on the main thread of a page load (figures:
// docs/benchmarks.md, "Figures behind the code"). date-fns' en-US patterns give the same text.

/**
 * US English short date ('Mar 5, 2026', local time unless `timeZone` is UTC); 'Unknown' when missing, 'Invalid
 * date' when unparsable.
 */
export function formatDate(value: string | number | Date | null | undefined, timeZone: DisplayTimeZone = 'local'): string {
  if (value === null || value === undefined || value === '') return 'Unknown';
  const date = toDate(value);
  if (!isValid(date)) return 'Invalid date';
  return format(timeZone === 'UTC' ? new UTCDate(date) : date, 'MMM d, yyyy');
}

/** A count with US thousands separators ('1,950'), as toLocaleString('en-US') writes whole numbers. */
export function formatCount(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Change-history date: 'MMM d, yyyy h:mm a' ('Mar 5, 2026 2:30 PM'), local time unless `timeZone` is UTC. */
export function formatChangeDate(value: string | number | Date | null | undefined, timeZone: DisplayTimeZone = 'local'): string {
  if (value === null || value === undefined || value === '') return 'Unknown';
  const date = toDate(value);
  return isValid(date) ? format(timeZone === 'UTC' ? new UTCDate(date) : date, 'MMM d, yyyy h:mm a') : 'Invalid date';
}

/** 'X ago' relative to `now` ('3 days ago'). */
export function formatTimeAgo(value: string | number | Date | null | undefined, now: Date): string {
  if (value === null || value === undefined || value === '') return 'Unknown';
  const date = toDate(value);
  return isValid(date) ? formatDistance(date, now, { addSuffix: true }) : 'Invalid date';
}

/** Cuts text to `max` characters and adds '...' when it was longer. */
export function truncate(text: string | null | undefined, max: number): string {
  if (!text) return '';
  return text.length > max ? `${text.slice(0, max).trimEnd()}...` : text;
}

/** Plain text of an HTML fragment (for previews of bodies), whitespace collapsed. */
export function stripHtml(html: string | null | undefined): string {
  if (!html) return '';
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A change-history value as short text, cut at the preview length: a structured field as readers know it (rollout
 * timing, the tenant's rollout status: `field` says which), lists joined, other objects as JSON, '(empty)' for none.
 */
export function formatChangeValue(value: unknown, field?: string): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  const structured = field ? structuredHistoryValue(field, value) : null;
  if (structured !== null) return truncate(structured, CHANGE_VALUE_PREVIEW_CHARS);
  if (Array.isArray(value))
    return value.length ? truncate(value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', '), CHANGE_VALUE_PREVIEW_CHARS) : '(empty)';
  if (typeof value === 'object') return truncate(JSON.stringify(value), CHANGE_VALUE_PREVIEW_CHARS);
  return truncate(String(value), CHANGE_VALUE_PREVIEW_CHARS);
}
