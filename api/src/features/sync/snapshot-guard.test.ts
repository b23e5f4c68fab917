import { describe, expect, it } from '@jest/globals';
import { holdReason } from './snapshot-guard.js';

const policy = { maxRemovedPercent: 10, minRemovedItems: 25 };

describe('holdReason: a hold needs both the share and the floor', () => {
  it.each([
    // [activeBefore, wouldRemove, itemCount, held?]
    [1900, 31, 1902, false], // a real week: 1.6 %
    [1900, 950, 950, true], // half the feed
    [12, 2, 10, false], // a small source losing 2 (17 %): under the floor
    [40, 24, 16, false], // 60 %, but 24 items: under the floor
    [40, 25, 15, true], // 62.5 % and 25 items
    [300, 30, 270, false], // 25 items or more, but exactly 10 %: not more than the share
    [300, 31, 269, true],
  ])('%i live, %i removed (%i in snapshot) → held %s', (activeBefore, wouldRemove, itemCount, held) => {
    expect(holdReason({ activeBefore, wouldRemove, itemCount }, policy) !== null).toBe(held);
  });

  it('names both numbers and the setting', () => {
    expect(holdReason({ activeBefore: 1900, wouldRemove: 950, itemCount: 950 }, policy)).toBe(
      'The snapshot would remove 950 of 1,900 live items (50%), more than SYNC_MAX_REMOVED_PERCENT (10%).',
    );
  });

  it('an empty snapshot is held unless the source had fewer live items than the floor', () => {
    expect(holdReason({ activeBefore: 1900, wouldRemove: 1900, itemCount: 0 }, policy)).toBe(
      'The snapshot is empty: applying it would mark all 1,900 live items removed.',
    );
    expect(holdReason({ activeBefore: 3, wouldRemove: 3, itemCount: 0 }, policy)).toBeNull();
    expect(holdReason({ activeBefore: 0, wouldRemove: 0, itemCount: 0 }, policy)).toBe('The snapshot is empty.');
  });

  it('100 % turns the share check off; the floor alone never holds', () => {
    expect(holdReason({ activeBefore: 1900, wouldRemove: 1000, itemCount: 900 }, { maxRemovedPercent: 100, minRemovedItems: 25 })).toBeNull();
  });
});
