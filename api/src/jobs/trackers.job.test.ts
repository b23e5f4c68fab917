import { describe, expect, it } from '@jest/globals';
import { DELIVER_TRACKERS_EVERY_MS, deliverTrackersEveryMs } from './trackers.job.js';

describe('deliver-trackers interval', () => {
  it('runs every 30 s with the default first retry delay of a minute', () => {
    expect(deliverTrackersEveryMs(60_000)).toBe(DELIVER_TRACKERS_EVERY_MS);
    expect(DELIVER_TRACKERS_EVERY_MS).toBe(30_000);
  });

  it('runs as often as a shorter first retry delay, but at most once a second', () => {
    expect(deliverTrackersEveryMs(5_000)).toBe(5_000);
    expect(deliverTrackersEveryMs(500)).toBe(1_000);
  });
});
