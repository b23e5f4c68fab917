import { describe, expect, it } from '@jest/globals';
import { readableText, wordDiffParts } from './word-diff.js';

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
});
