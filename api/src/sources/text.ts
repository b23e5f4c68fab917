/**
 * Text cleaning shared by both feeds. The feeds carry invisible characters that break search, sorting and
 * equality (docs/ingestion.md, "Quirks handled"): zero-width spaces inside titles, a BOM inside bodies, NBSP, and the vertical tab
 * that Word uses as a soft line break.
 */

/** Invisible characters with no meaning in plain text (titles, summaries). */
// The joiners are listed one by one on purpose: each is stripped alone, never as part of a sequence.
// eslint-disable-next-line no-misleading-character-class
const ZERO_WIDTH_PLAIN = /[\u200b\u200c\u200d\u2060\ufeff\u180e]/g;
/**
 * In HTML/long text we keep ZWJ/ZWNJ: they join emoji sequences and some scripts. Only the characters that are
 * pure noise go.
 */
const ZERO_WIDTH_RICH = /[\u200b\u2060\ufeff\u180e]/g;
/** C0 controls except \t \n \r, plus DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/g;
/** Vertical tab and form feed are line breaks in the source documents. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SOFT_BREAK = /[\u000b\u000c]/g;
const NBSP = /[\u00a0\u202f\u2007]/g;

/** Titles and other one-line strings: trimmed, one space between words, no invisible or control characters. */
export function cleanLine(value: string | null | undefined): string {
  if (!value) return '';
  return value.replace(ZERO_WIDTH_PLAIN, '').replace(SOFT_BREAK, ' ').replace(CONTROL, '').replace(NBSP, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Descriptions, summaries and bodies: line structure and HTML are kept (sanitised only when shown);
 * invisible characters go, soft breaks become newlines, CRLF becomes LF, outer whitespace is trimmed.
 * NBSP inside rich text is left alone: in HTML it can be deliberate spacing.
 */
export function cleanRich(value: string | null | undefined): string {
  if (!value) return '';
  return value.replace(ZERO_WIDTH_RICH, '').replace(/\r\n?/g, '\n').replace(SOFT_BREAK, '\n').replace(CONTROL, '').trim();
}

/** A string that is empty after cleaning is "no value". */
export function cleanOptionalLine(value: string | null | undefined): string | null {
  const cleaned = cleanLine(value);
  return cleaned === '' ? null : cleaned;
}

const HAS_TAG = /<\/?[a-z][a-z0-9]*(\s[^>]*)?>/i;

/**
 * One Graph body (MC929014) is plain text with `\n` although contentType says html. Rendering it as HTML would
 * collapse its paragraphs, so plain text is escaped and its line breaks become `<br>`.
 */
export function asHtml(value: string): string {
  if (value === '' || HAS_TAG.test(value)) return value;
  const escaped = value
    .replace(/&(?![a-z]+;|#\d+;)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
  return escaped.replace(/\n/g, '<br>\n');
}

/** Unique values in first-seen order, empties dropped. */
export function uniqueList(values: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const v of values) if (v !== '') seen.add(v);
  return [...seen];
}

/**
 * Roadmap `created`/`modified` carry no zone and are UTC (the RSS shows the same instant with `Z`); Graph uses
 * `Z` with 0–3 fraction digits. Both become a Date; an unparsable value gives null.
 */
export function parseUtc(value: string | null | undefined): Date | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const hasZone = /(z|[+-]\d\d:?\d\d)$/i.test(trimmed);
  const isoLike = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?)?/.test(trimmed);
  const withZone = isoLike && !hasZone ? (trimmed.includes('T') ? `${trimmed}Z` : `${trimmed}T00:00:00Z`) : trimmed;
  const date = new Date(withZone);
  return Number.isNaN(date.getTime()) ? null : date;
}
