import { describe, expect, it } from '@jest/globals';
import { digestCron, nextSendAt, scheduledSendOfWeek, sundayOnOrBefore, weekRange } from './week-range.js';

const utc8 = { timezone: 'UTC', sendHour: 8 };
const ny9 = { timezone: 'America/New_York', sendHour: 9 };

describe('week range', () => {
  it('covers the 7 days before now and names the next Sunday send', () => {
    const now = new Date('2026-02-07T12:00:00Z'); // a Saturday
    expect(weekRange(now, now, utc8)).toEqual({
      start: '2026-01-31T12:00:00.000Z',
      end: '2026-02-07T12:00:00.000Z',
      startFormatted: 'Jan 31, 2026',
      endFormatted: 'Feb 7, 2026',
      nextUpdateFormatted: 'Sunday, Feb 8, 2026 at 8:00 AM UTC',
    });
  });

  it('on Sunday before the send hour the next update is today; after it, next week', () => {
    expect(nextSendAt(new Date('2026-02-08T07:59:00Z'), utc8).toISOString()).toBe('2026-02-08T08:00:00.000Z');
    expect(nextSendAt(new Date('2026-02-08T08:00:00Z'), utc8).toISOString()).toBe('2026-02-15T08:00:00.000Z');
  });

  it('follows the configured zone, daylight saving included', () => {
    // 2026-03-08 is the US switch to daylight time: 09:00 EDT = 13:00 UTC (a week earlier 09:00 EST = 14:00 UTC).
    expect(nextSendAt(new Date('2026-03-02T00:00:00Z'), ny9).toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(nextSendAt(new Date('2026-02-23T00:00:00Z'), ny9).toISOString()).toBe('2026-03-01T14:00:00.000Z');
    expect(weekRange(new Date('2026-03-02T00:00:00Z'), new Date('2026-03-02T00:00:00Z'), ny9).nextUpdateFormatted).toBe('Sunday, Mar 8, 2026 at 9:00 AM EDT');
    // Sunday 02:00 UTC is still Saturday evening in New York.
    expect(sundayOnOrBefore(new Date('2026-02-08T02:00:00Z'), 'America/New_York')).toBe('2026-02-01');
    expect(sundayOnOrBefore(new Date('2026-02-08T02:00:00Z'), 'UTC')).toBe('2026-02-08');
  });

  it('keys a week by its Sunday and knows the scheduled send', () => {
    expect(scheduledSendOfWeek(new Date('2026-02-11T10:00:00Z'), utc8)).toEqual({ weekStart: '2026-02-08', sendAt: new Date('2026-02-08T08:00:00Z') });
    expect(digestCron(8)).toBe('0 8 * * 0');
  });
});
