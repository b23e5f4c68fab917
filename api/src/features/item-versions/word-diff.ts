import { diffWordsWithSpace } from 'diff';
import type { WordDiffPart } from '@radar/contracts';
import { htmlToPlainText, sanitizeMaybeHtml } from '../../lib/html.js';

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
 * Word-level diff (jsdiff's diffWordsWithSpace: words, and the spaces and line breaks between them, are the tokens)
 * of the readable text of two versions. The parts are plain text, so the client renders them as text nodes and no
 * provider markup is ever injected. Neighbouring parts of one kind are merged.
 */
export function wordDiffParts(before: unknown, after: unknown): WordDiffPart[] {
  const parts: WordDiffPart[] = [];
  for (const change of diffWordsWithSpace(readableText(before), readableText(after))) {
    const type = change.added ? 'insert' : change.removed ? 'delete' : 'equal';
    const last = parts[parts.length - 1];
    if (last && last.type === type) last.text += change.value;
    else parts.push({ type, text: change.value });
  }
  return parts;
}
