import { describe, expect, it } from '@jest/globals';
import { boundedWordDiff, focusedWordDiff, readableText, textDiffsOf, wordDiffParts } from './word-diff.js';

describe('word diff', () => {
  it('reads provider HTML as sanitised text, keeping paragraphs and list items as lines', () => {
    const html = '<p>Hello <b>admins</b>&nbsp;&amp; users</p><script>alert(1)</script><ul><li>One</li><li>Two</li></ul><img src=x onerror=alert(2)>';
    expect(readableText(html)).toBe('Hello admins & users\nOne\nTwo');
    expect(readableText('Plain text with a < sign\nand a new line')).toBe('Plain text with a < sign\nand a new line');
    expect(readableText(null)).toBe('');
  });

  it('marks inserted and deleted words, keeping the equal text and spaces between them', () => {
    const parts = wordDiffParts('<p>Rollout begins in March.</p>', '<p>Rollout begins in <b>late</b> April.</p>');
    expect(parts).toEqual([
      { type: 'equal', text: 'Rollout begins in ' },
      { type: 'delete', text: 'March' },
      { type: 'insert', text: 'late April' },
      { type: 'equal', text: '.' },
    ]);
    expect(parts.map((p) => (p.type === 'delete' ? '' : p.text)).join('')).toBe('Rollout begins in late April.');
  });

  it('cuts long unchanged stretches to the words around each change, so a late change is in view', () => {
    const words = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `w${from + i}`).join(' ');
    const before = `<p>${words(1, 300)} ends in March.</p>`;
    const after = `<p>${words(1, 300)} ends in April.</p>`;
    const parts = focusedWordDiff(wordDiffParts(before, after), 3);
    expect(parts).toEqual([
      { type: 'equal', text: '… w300 ends in ' },
      { type: 'delete', text: 'March' },
      { type: 'insert', text: 'April' },
      { type: 'equal', text: '.' },
    ]);
    const middle = focusedWordDiff(wordDiffParts(`${words(1, 40)} old ${words(41, 80)}`, `${words(1, 40)} new ${words(41, 80)}`), 2);
    expect(middle.map((p) => p.text)).toEqual(['… w39 w40 ', 'old', 'new', ' w41 w42 …']);
    // Short stretches stay whole; a change only in markup leaves nothing to show.
    expect(focusedWordDiff(wordDiffParts('a b c', 'a x c'), 3).map((p) => p.text)).toEqual(['a ', 'b', 'x', ' c']);
    expect(focusedWordDiff(wordDiffParts('<p>Same</p>', '<div>Same</div>'))).toEqual([]);
  });

  it('diffs only the prose fields of a change', () => {
    const diffs = textDiffsOf(
      ['title', 'status', 'bodyContent'],
      { title: 'Old', status: 'A', bodyContent: '<p>x</p>' },
      { title: 'New', status: 'B', bodyContent: '<p>y</p>' },
    );
    expect(diffs.map((d) => d.field)).toEqual(['title', 'bodyContent']);
    expect(diffs[0].parts).toEqual([
      { type: 'delete', text: 'Old' },
      { type: 'insert', text: 'New' },
    ]);
  });

  it('gives up past its bound on edits and says so, showing the old text deleted and the new inserted', () => {
    const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => `w${(i * 7919 + seed) % 100003}`).join(' ');
    const before = words(1, 3000);
    const after = words(2, 3000);
    const diff = boundedWordDiff(before, after, 200);
    expect(diff.gaveUp).toBe(true);
    expect(diff.parts).toEqual([
      { type: 'delete', text: before },
      { type: 'insert', text: after },
    ]);
    expect(boundedWordDiff('one two three', 'one two four')).toEqual({
      gaveUp: false,
      parts: [
        { type: 'equal', text: 'one two ' },
        { type: 'delete', text: 'three' },
        { type: 'insert', text: 'four' },
      ],
    });
  });
});
