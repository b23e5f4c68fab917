import { htmlToPlainText } from '../../lib/html.js';

/** What a history entry needs to be judged. */
export interface HistoryChange {
  changeType: 'new' | 'changed' | 'removed';
  changedFields: string[];
  previousValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
}

/**
 * The text a reader compares: markup dropped (HTML bodies and descriptions are read as text), letter case folded,
 * whitespace and punctuation removed. Two values with the same key differ only cosmetically.
 */
function textKey(value: string): string {
  return htmlToPlainText(value)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\u200b-\u200d\u2060\ufeff]+/gu, '');
}

/** A value as comparable text, or null when it is not text (numbers, booleans, dates as objects, link lists…). */
function keyOf(value: unknown): string | null {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return textKey(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return JSON.stringify(value.map(textKey).sort());
  return null;
}

/**
 * A cosmetic edit: a recorded change in which every changed field holds text (or a list of texts) that differs only
 * in whitespace, punctuation or letter case — "Microsoft 365 Admin Center" → "Microsoft 365 admin center", a
 * trailing full stop, a doubled space, `<b>` markup around the same words. Such entries stay in the history with a
 * 'minor' badge and are not e-mailed to followers. Removals and returns are never minor, nor is a change of a date,
 * flag or link list. Worked out when history is read (not stored), so every reader applies one rule.
 */
export function isCosmeticChange(entry: HistoryChange): boolean {
  if (entry.changeType !== 'changed' || entry.changedFields.length === 0) return false;
  return entry.changedFields.every((field) => {
    if (field === 'isRemoved') return false;
    const before = keyOf(entry.previousValues[field]);
    const after = keyOf(entry.newValues[field]);
    return before !== null && after !== null && before === after;
  });
}
