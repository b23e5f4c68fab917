import { describe, expect, it } from '@jest/globals';
import { canonicalRoadmapDate, roadmapDateRange, formatMonthShift, releaseDateMove, roadmapMonthIndex } from './release-dates.js';

describe('roadmap release dates', () => {
  it('reads "<Month> CY<yyyy>" in the spellings the feed and people use', () => {
    expect(roadmapMonthIndex('March CY2026')).toBe(2026 * 12 + 2);
    expect(roadmapMonthIndex('march cy 2026')).toBe(2026 * 12 + 2);
    expect(roadmapMonthIndex(' December 2025 ')).toBe(2025 * 12 + 11);
    for (const unknown of ['CY2026', 'Q1 CY2026', 'Mar CY2026', '', null, undefined, 'March CY26']) expect(roadmapMonthIndex(unknown)).toBeNull();
  });

  it('counts a move when a given date changes to another, with its shift in months', () => {
    expect(releaseDateMove('March CY2026', 'April CY2026')).toEqual({ from: 'March CY2026', to: 'April CY2026', shiftMonths: 1 });
    expect(releaseDateMove('January CY2027', 'October CY2026')).toEqual({ from: 'January CY2027', to: 'October CY2026', shiftMonths: -3 });
    // Moves to or from a date without a month still count, by an unknown amount.
    expect(releaseDateMove('CY2026', 'June CY2026')).toEqual({ from: 'CY2026', to: 'June CY2026', shiftMonths: null });
  });

  it('a first date, a withdrawn date or a new spelling of the same month is not a move', () => {
    expect(releaseDateMove('', 'March CY2026')).toBeNull();
    expect(releaseDateMove(null, 'March CY2026')).toBeNull();
    expect(releaseDateMove('March CY2026', '')).toBeNull();
    expect(releaseDateMove('March CY2026', 'March CY 2026')).toBeNull();
    expect(releaseDateMove('March CY2026', ' March CY2026')).toBeNull();
    expect(releaseDateMove(['March CY2026'], 'April CY2026')).toBeNull();
  });

  it('formats a signed month count', () => {
    expect(formatMonthShift(5)).toBe('+5 months');
    expect(formatMonthShift(1)).toBe('+1 month');
    expect(formatMonthShift(-2)).toBe('−2 months');
    expect(formatMonthShift(0)).toBe('+0 months');
  });
});

describe('canonicalRoadmapDate: one spelling whatever the feed', () => {
  it.each([
    ['February CY2026', 'February CY2026'],
    ['2026-02', 'February CY2026'],
    ['2026-2', 'February CY2026'],
    ['2026-12-01', 'December CY2026'],
    ['2026-12-01T00:00:00Z', 'December CY2026'],
    ['february cy 2026', 'February CY2026'],
    [' March  2026 ', 'March CY2026'],
    ['2026', 'CY2026'],
    ['CY2026', 'CY2026'],
    ['Q1 CY2026', 'Q1 CY2026'],
    ['2026-Q3', 'Q3 CY2026'],
    ['2026-13', '2026-13'],
    ['Mar CY2026', 'Mar CY2026'],
    ['', null],
    [null, null],
  ])('%p → %p', (input, expected) => {
    expect(canonicalRoadmapDate(input)).toBe(expected);
  });

  it('a v1 month and its v2 spelling are the same month (no move)', () => {
    expect(releaseDateMove('February CY2026', canonicalRoadmapDate('2026-02'))).toBeNull();
  });
});

describe('roadmapDateRange: the days a roadmap date means', () => {
  it.each([
    ['March CY2026', { start: '2026-03-01', end: '2026-03-31' }],
    ['February CY2028', { start: '2028-02-01', end: '2028-02-29' }],
    ['2026-11', { start: '2026-11-01', end: '2026-11-30' }],
    ['Q4 CY2026', { start: '2026-10-01', end: '2026-12-31' }],
    ['CY2027', { start: '2027-01-01', end: '2027-12-31' }],
    ['TBD', null],
    [null, null],
  ])('%p → %p', (input, expected) => {
    expect(roadmapDateRange(input)).toEqual(expected);
  });
});
