import { fromZonedTime, toZonedTime } from 'date-fns-tz';

/** A digest schedule: every day, or every `weekday` (0 = Sunday), at `hour` o'clock in `timeZone`. */
export interface DigestSchedule {
  schedule: 'daily' | 'weekly';
  hour: number;
  weekday: number;
  timeZone: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A digest after a long outage covers at most this much (the rest is in the list and the item histories). */
export const MAX_DIGEST_WINDOW_MS = 31 * DAY_MS;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The latest moment at or before `now` when the digest is due: the wall-clock hour in the search's own time zone,
 * so 08:00 Europe/Berlin stays 08:00 across daylight saving time (an hour the clocks skip is taken as the first
 * moment after it, as date-fns-tz does).
 */
export function latestSlot(s: DigestSchedule, now: Date): Date {
  const wall = toZonedTime(now, s.timeZone);
  const back = s.schedule === 'weekly' ? (wall.getDay() - s.weekday + 7) % 7 : 0;
  const step = s.schedule === 'weekly' ? 7 : 1;
  for (let extra = 0; ; extra += step) {
    const day = new Date(Date.UTC(wall.getFullYear(), wall.getMonth(), wall.getDate() - back - extra));
    const slot = fromZonedTime(`${day.toISOString().slice(0, 10)}T${pad(s.hour)}:00:00`, s.timeZone);
    if (slot.getTime() <= now.getTime()) return slot;
  }
}

/** The slot before `slot` (yesterday's or last week's). */
export const previousSlot = (s: DigestSchedule, slot: Date): Date => latestSlot(s, new Date(slot.getTime() - 1));

/**
 * Whether a digest is due at `now`, and for which slot and window: the latest slot must be after the moment the
 * schedule was set (`anchor`) and after the last digest sent. The window runs from the last digest (or, for the
 * first one, the slot before) to the slot, at most 31 days.
 */
export function dueDigest(s: DigestSchedule & { anchor: Date; lastDigestAt: Date | null }, now: Date): { slot: Date; from: Date } | null {
  const slot = latestSlot(s, now);
  if (slot.getTime() <= s.anchor.getTime()) return null;
  if (s.lastDigestAt && slot.getTime() <= s.lastDigestAt.getTime()) return null;
  const from = s.lastDigestAt ?? previousSlot(s, slot);
  return { slot, from: new Date(Math.max(from.getTime(), slot.getTime() - MAX_DIGEST_WINDOW_MS)) };
}

/** The next slot after `now` (shown in the UI and the docs' examples). */
export function nextSlot(s: DigestSchedule, now: Date): Date {
  const step = (s.schedule === 'weekly' ? 7 : 1) * DAY_MS;
  // Two steps ahead always lies past the next slot (daylight saving moves a slot by at most an hour).
  let candidate = latestSlot(s, new Date(now.getTime() + 2 * step));
  for (let prev = previousSlot(s, candidate); prev.getTime() > now.getTime(); prev = previousSlot(s, candidate)) candidate = prev;
  return candidate;
}
