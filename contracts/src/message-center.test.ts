import { describe, expect, it } from '@jest/globals';
import { featureStatusEntries, formatTiming, reachedTenant, timingMove } from './rollout.js';
import { structuredHistoryValue } from './history-fields.js';

const w = (ring: string, label: string, start: string, end: string) => ({ ring, label, start, end });

describe('rollout timing for readers', () => {
  it('formats windows per ring', () => {
    expect(
      formatTiming([w('Targeted', 'late July 2026', '2026-07-21', '2026-07-31'), w('general', 'mid-August 2026', '2026-08-11', '2026-08-20')] as never),
    ).toBe('Targeted Release: late July 2026; General availability: mid-August 2026');
    expect(structuredHistoryValue('timing', [])).toBe('No dates given');
    expect(structuredHistoryValue('title', 'x')).toBeNull();
  });

  it('a move of the start or the end is a move, with its shift in months; new wording of the same dates is not', () => {
    const before = [w('general', 'mid-July 2026', '2026-07-11', '2026-07-20')];
    const later = [w('general', 'late August 2026', '2026-08-21', '2026-08-31')];
    expect(timingMove(before, later)).toEqual({ from: 'mid-July 2026 (General availability)', to: 'late August 2026 (General availability)', shiftMonths: 1 });
    expect(timingMove(before, [w('general', 'Mid-July 2026', '2026-07-11', '2026-07-20')])).toBeNull();
    expect(timingMove([], later)).toBeNull();
    expect(timingMove(before, [])).toBeNull();
    expect(timingMove('junk', later)).toBeNull();
    const endOnly = timingMove([w('general', 'x', '2026-07-11', '2026-07-20')], [w('general', 'x', '2026-07-11', '2026-09-20')]);
    expect(endOnly?.shiftMonths).toBe(2);
  });
});

describe('feature status for the tenant', () => {
  it('reads the stored FeatureStatusJson per platform with words for people', () => {
    const stored = {
      '518218': [
        { RoadmapId: 518218, Platform: 'Mac', Status: 'FeatureRolloutStatusNotSupported', LatestRing: null },
        { RoadmapId: 518218, Platform: 'Web', Status: 'InRollout', LatestRing: 'GA' },
      ],
    };
    expect(featureStatusEntries(stored)).toEqual([
      { roadmapId: '518218', platform: 'Mac', status: 'FeatureRolloutStatusNotSupported', label: 'Not supported' },
      { roadmapId: '518218', platform: 'Web', status: 'InRollout', label: 'Rolling out' },
    ]);
    expect(structuredHistoryValue('featureStatus', stored)).toBe('Mac: Not supported; Web: Rolling out');
    expect(featureStatusEntries('not json')).toEqual([]);
  });
});

describe('reaching the tenant', () => {
  const status = (s: Record<string, string>) => ({ '1': Object.entries(s).map(([Platform, Status]) => ({ RoadmapId: 1, Platform, Status })) });
  it('is a platform going from scheduled or rolling out to Launched', () => {
    expect(
      reachedTenant(status({ Web: 'Scheduled', Mac: 'InRollout', iOS: 'Launched' }), status({ Web: 'Launched', Mac: 'Launched', iOS: 'Launched' })),
    ).toEqual(['Web', 'Mac']);
    expect(reachedTenant(status({ Web: 'FeatureRolloutStatusNotSupported' }), status({ Web: 'Launched' }))).toEqual([]);
    expect(reachedTenant(null, status({ Web: 'Launched' }))).toEqual([]);
    expect(reachedTenant(status({ Web: 'Scheduled' }), status({ Web: 'InRollout' }))).toEqual([]);
  });
});
