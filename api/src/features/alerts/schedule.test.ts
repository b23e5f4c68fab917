import { describe, expect, it } from '@jest/globals';
import { dueDigest, latestSlot, MAX_DIGEST_WINDOW_MS, nextSlot, previousSlot, type DigestSchedule } from './schedule.js';

const berlin8: DigestSchedule = { schedule: 'daily', hour: 8, weekday: 1, timeZone: 'Europe/Berlin' };
const at = (iso: string) => new Date(iso);

describe('digest slots at fixed clocks', () => {
  it('daily at 08:00 Europe/Berlin is 07:00 UTC in winter and 06:00 UTC in summer', () => {
    expect(latestSlot(berlin8, at('2026-02-07T06:59:59Z')).toISOString()).toBe('2026-02-06T07:00:00.000Z');
    expect(latestSlot(berlin8, at('2026-02-07T07:00:00Z')).toISOString()).toBe('2026-02-07T07:00:00.000Z');
    expect(latestSlot(berlin8, at('2026-07-01T06:00:00Z')).toISOString()).toBe('2026-07-01T06:00:00.000Z');
  });

  it('follows daylight saving time on the day the clocks change', () => {
    // 2026-03-29: Berlin moves from UTC+1 to UTC+2 at 02:00.
    expect(latestSlot(berlin8, at('2026-03-29T05:59:00Z')).toISOString()).toBe('2026-03-28T07:00:00.000Z');
    expect(latestSlot(berlin8, at('2026-03-29T06:00:00Z')).toISOString()).toBe('2026-03-29T06:00:00.000Z');
    expect(previousSlot(berlin8, at('2026-03-29T06:00:00Z')).toISOString()).toBe('2026-03-28T07:00:00.000Z');
  });

  it('weekly on the chosen weekday in the chosen zone', () => {
    const sundayNy: DigestSchedule = { schedule: 'weekly', hour: 8, weekday: 0, timeZone: 'America/New_York' };
    // Saturday 2026-02-07: the last Sunday 08:00 EST was 2026-02-01 13:00 UTC.
    expect(latestSlot(sundayNy, at('2026-02-07T12:00:00Z')).toISOString()).toBe('2026-02-01T13:00:00.000Z');
    expect(latestSlot(sundayNy, at('2026-02-08T13:00:00Z')).toISOString()).toBe('2026-02-08T13:00:00.000Z');
    expect(nextSlot(sundayNy, at('2026-02-07T12:00:00Z')).toISOString()).toBe('2026-02-08T13:00:00.000Z');
    // Late on Saturday in Tokyo is already Sunday there.
    const mondayTokyo: DigestSchedule = { schedule: 'weekly', hour: 9, weekday: 1, timeZone: 'Asia/Tokyo' };
    expect(latestSlot(mondayTokyo, at('2026-02-09T00:00:00Z')).toISOString()).toBe('2026-02-09T00:00:00.000Z');
    expect(latestSlot(mondayTokyo, at('2026-02-08T23:59:00Z')).toISOString()).toBe('2026-02-02T00:00:00.000Z');
  });

  it('a digest is due once per slot, never for a slot before the schedule was set', () => {
    const base = { ...berlin8, anchor: at('2026-02-06T10:00:00Z'), lastDigestAt: null };
    expect(dueDigest(base, at('2026-02-07T06:59:00Z'))).toBeNull();
    const due = dueDigest(base, at('2026-02-07T07:00:30Z'))!;
    expect(due.slot.toISOString()).toBe('2026-02-07T07:00:00.000Z');
    expect(due.from.toISOString()).toBe('2026-02-06T07:00:00.000Z');
    expect(dueDigest({ ...base, lastDigestAt: due.slot }, at('2026-02-07T09:00:00Z'))).toBeNull();
    // After an outage the next digest covers everything since the last one (at most 31 days).
    const late = dueDigest({ ...base, lastDigestAt: due.slot }, at('2026-02-10T12:00:00Z'))!;
    expect(late.slot.toISOString()).toBe('2026-02-10T07:00:00.000Z');
    expect(late.from.toISOString()).toBe('2026-02-07T07:00:00.000Z');
    const veryLate = dueDigest({ ...base, lastDigestAt: due.slot }, at('2026-06-10T12:00:00Z'))!;
    expect(veryLate.slot.getTime() - veryLate.from.getTime()).toBe(MAX_DIGEST_WINDOW_MS);
  });
});
