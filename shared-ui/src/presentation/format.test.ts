import { describe, expect, it } from '@jest/globals';
import { formatChangeDate, formatCount, formatDate, formatReleaseDate, formatTimeAgo, stripHtml, truncate } from './format.js';

describe('formatReleaseDate', () => {
  it.each([
    ['March CY2026', 'Mar 2026'],
    ['September CY 2025', 'Sep 2025'],
    ['CY 2025', '2025'],
    ['Q1 CY2026', 'Q1 2026'],
    ['January and February CY2026', 'January February 2026'],
    ['Mar 2026', 'Mar 2026'],
    ['', 'TBD'],
    [null, 'TBD'],
    [undefined, 'TBD'],
  ])('%s -> %s', (input, expected) => {
    expect(formatReleaseDate(input)).toBe(expected);
  });
});

describe('formatCount', () => {
  it.each([0, 7, 999, 1000, 1950, 12345, 1234567, -4321])('%i as toLocaleString("en-US") writes it', (n) => {
    expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('formatDate', () => {
  it('writes what toLocaleDateString("en-US", short month) writes, for every month', () => {
    for (let month = 0; month < 12; month++) {
      const date = new Date(2026, month, month + 1, 15, 30);
      expect(formatDate(date)).toBe(date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }));
    }
  });

  it('uses the US English short form', () => {
    expect(formatDate('2026-03-05T12:00:00.000Z')).toBe('Mar 5, 2026');
  });
  it('says Unknown when missing and Invalid date when unparsable', () => {
    expect(formatDate(null)).toBe('Unknown');
    expect(formatDate('')).toBe('Unknown');
    expect(formatDate('not a date')).toBe('Invalid date');
  });
});

describe('formatChangeDate', () => {
  it("formats like 'MMM d, yyyy h:mm a'", () => {
    expect(formatChangeDate(new Date(2026, 2, 5, 14, 7))).toBe('Mar 5, 2026 2:07 PM');
    expect(formatChangeDate('garbage')).toBe('Invalid date');
  });

  it('writes UTC when asked (a server render and its hydration), whatever the local zone', () => {
    expect(formatChangeDate('2026-03-05T23:30:00.000Z', 'UTC')).toBe('Mar 5, 2026 11:30 PM');
    expect(formatChangeDate(null, 'UTC')).toBe('Unknown');
  });
});

describe('formatTimeAgo', () => {
  it('is relative to the given now', () => {
    expect(formatTimeAgo('2026-03-12T12:00:00.000Z', new Date('2026-03-15T12:00:00.000Z'))).toBe('3 days ago');
  });
});

describe('truncate and stripHtml', () => {
  it('cuts at the limit and marks the cut', () => {
    expect(truncate('abcdef', 3)).toBe('abc...');
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate(null, 3)).toBe('');
  });
  it('keeps the text of HTML', () => {
    expect(stripHtml('<p>Hello&nbsp;<b>world</b></p>')).toBe('Hello world');
  });
});
