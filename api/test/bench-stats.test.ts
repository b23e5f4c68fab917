import { describe, expect, it } from '@jest/globals';
import { median, percentile } from '../bench/stats.js';

describe('bench statistics', () => {
  it('takes percentiles by nearest rank, whatever the order of the values', () => {
    const values = [7, 1, 10, 3, 5, 9, 2, 8, 4, 6];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile(values, 90)).toBe(9);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 100)).toBe(10);
    expect(percentile([42], 99)).toBe(42);
    expect(values[0]).toBe(7);
  });

  it('takes the median as the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('gives NaN for no values, so an empty measurement cannot pass for zero', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(median([])).toBeNaN();
  });
});
