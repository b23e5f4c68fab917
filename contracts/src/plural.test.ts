import { describe, expect, it } from '@jest/globals';
import { formatCount } from './plural.js';

describe('formatCount', () => {
  it.each([
    [0, 'submission', undefined, '0 submissions'],
    [1, 'submission', undefined, '1 submission'],
    [2, 'product mapping', undefined, '2 product mappings'],
    [1234, 'item', undefined, '1,234 items'],
    [1, 'entry', 'entries', '1 entry'],
    [3, 'entry', 'entries', '3 entries'],
  ])('%i %s', (n, one, many, text) => {
    expect(formatCount(n, one, many)).toBe(text);
  });
});
