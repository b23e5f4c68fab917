import { diffWordsWithSpace } from 'diff';
import type { WordDiffPart } from '@radar/contracts';
import { htmlToPlainText, sanitizeMaybeHtml } from '../../../lib/html.js';

/**
 * The text a reader sees of a description or body: provider HTML is sanitised first (scripts, styles and unsafe
 * markup go, with their text), then reduced to text with paragraphs, list items and line breaks kept as new lines
 * and entities decoded. Plain-text roadmap descriptions pass unchanged apart from whitespace.
 */
export function readableText(value: unknown): string {
  if (typeof value !== 'string' || !value) return '';
  return htmlToPlainText(sanitizeMaybeHtml(value));
}

/**
 * The most edits a word diff looks for (jsdiff's maxEditLength). Myers' diff costs time with the square of the edits,
 * and a compare of a post's first and last version is anyone's to ask for: two unrelated 10,000-word bodies would
 * keep a core busy for seconds. Past the bound the diff gives up and says so.
 */
export const MAX_DIFF_EDITS = 2_000;

/**
 * Word-level diff (jsdiff's diffWordsWithSpace: words, and the spaces and line breaks between them, are the tokens)
 * of the readable text of two versions. The parts are plain text, so the client renders them as text nodes and no
 * provider markup is ever injected. Neighbouring parts of one kind are merged. Past MAX_DIFF_EDITS the old text is one
 * deletion and the new one one insertion, and `gaveUp` is true.
 */
export function boundedWordDiff(before: unknown, after: unknown, maxEdits = MAX_DIFF_EDITS): { parts: WordDiffPart[]; gaveUp: boolean } {
  const a = readableText(before);
  const b = readableText(after);
  const changes = diffWordsWithSpace(a, b, { maxEditLength: maxEdits });
  if (!changes) {
    const parts: WordDiffPart[] = [];
    if (a) parts.push({ type: 'delete', text: a });
    if (b) parts.push({ type: 'insert', text: b });
    return { parts, gaveUp: true };
  }
  return { parts: mergeChanges(changes), gaveUp: false };
}

export function wordDiffParts(before: unknown, after: unknown): WordDiffPart[] {
  return boundedWordDiff(before, after).parts;
}

function mergeChanges(changes: { added?: boolean; removed?: boolean; value: string }[]): WordDiffPart[] {
  const parts: WordDiffPart[] = [];
  for (const change of changes) {
    const type = change.added ? 'insert' : change.removed ? 'delete' : 'equal';
    const last = parts[parts.length - 1];
    if (last && last.type === type) last.text += change.value;
    else parts.push({ type, text: change.value });
  }
  return parts;
}

/** The change-history fields whose values are prose, shown as a word diff rather than as before → after. */
export const TEXT_HISTORY_FIELDS: readonly string[] = ['title', 'description', 'summary', 'bodyContent'];

const ELLIPSIS = '…';

/**
 * A word diff cut to what a reader needs to see the change: each unchanged stretch keeps `context` words next to
 * the changes around it and loses the rest to '…', so a change at the end of a long body is in view. Whitespace
 * counts as nothing; a stretch is cut only when that saves words.
 */
export function focusedWordDiff(parts: WordDiffPart[], context = 12): WordDiffPart[] {
  if (!parts.some((part) => part.type !== 'equal')) return [];
  return parts.map((part, index) => {
    if (part.type !== 'equal') return part;
    const tokens = part.text.split(/(\s+)/).filter(Boolean);
    const keepHead = index > 0 ? context : 0;
    const keepTail = index < parts.length - 1 ? context : 0;
    if (tokens.filter(isWord).length <= keepHead + keepTail + 2) return part;
    const head = keepHead ? takeWords(tokens, keepHead).join('').trimEnd() + ' ' : '';
    const tail = keepTail
      ? ' ' +
        takeWords([...tokens].reverse(), keepTail)
          .reverse()
          .join('')
          .trimStart()
      : '';
    return { type: 'equal', text: `${head}${ELLIPSIS}${tail}` };
  });
}

const isWord = (token: string) => !/^\s+$/.test(token);

/** The leading tokens (words and the whitespace between them) up to and including the `count`th word. */
function takeWords(tokens: string[], count: number): string[] {
  const kept: string[] = [];
  let words = 0;
  for (const token of tokens) {
    kept.push(token);
    if (isWord(token) && ++words === count) break;
  }
  return kept;
}

/** The focused word diffs of an entry's changed text fields, in the order they changed. */
export function textDiffsOf(changedFields: string[], previous: Record<string, unknown>, next: Record<string, unknown>) {
  return changedFields
    .filter((field) => TEXT_HISTORY_FIELDS.includes(field))
    .map((field) => ({ field, parts: focusedWordDiff(wordDiffParts(previous[field], next[field])) }));
}
