import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';

/** The digest covers the 7 days before the moment it is built. */
export const DIGEST_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export interface DigestSchedule {
  /** IANA time zone of the Sunday send (DIGEST_TIMEZONE). */
  timezone: string;
  /** Hour of the Sunday send in that zone (DIGEST_SEND_HOUR). */
  sendHour: number;
}

export interface WeekRange {
  start: string;
  end: string;
  startFormatted: string;
  endFormatted: string;
  nextUpdateFormatted: string;
}

/** 'yyyy-MM-dd' plus n days (calendar arithmetic, no time zone involved). */
function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The instant of `day` at `hour`:00 wall-clock time in the zone (DST-correct). */
function atLocalHour(day: string, hour: number, timezone: string): Date {
  return fromZonedTime(`${day}T${String(hour).padStart(2, '0')}:00:00`, timezone);
}

/** The local calendar day (in the zone) of the Sunday on or before `now` — the key of "this week". */
export function sundayOnOrBefore(now: Date, timezone: string): string {
  const day = formatInTimeZone(now, timezone, 'yyyy-MM-dd');
  const isoWeekday = Number(formatInTimeZone(now, timezone, 'i')); // 1 = Monday … 7 = Sunday
  return addDays(day, -(isoWeekday % 7));
}

/** The first Sunday send strictly after `now`. */
export function nextSendAt(now: Date, schedule: DigestSchedule): Date {
  const sunday = sundayOnOrBefore(now, schedule.timezone);
  const thisWeek = atLocalHour(sunday, schedule.sendHour, schedule.timezone);
  return thisWeek.getTime() > now.getTime() ? thisWeek : atLocalHour(addDays(sunday, 7), schedule.sendHour, schedule.timezone);
}

/** This week's scheduled send instant (the Sunday on or before `now`, at the send hour). */
export function scheduledSendOfWeek(now: Date, schedule: DigestSchedule): { weekStart: string; sendAt: Date } {
  const weekStart = sundayOnOrBefore(now, schedule.timezone);
  return { weekStart, sendAt: atLocalHour(weekStart, schedule.sendHour, schedule.timezone) };
}

export const formatDay = (d: Date, timezone: string) => formatInTimeZone(d, timezone, 'MMM d, yyyy');

/** The page's and the mail's week range: the 7 days ending at `end`, shown as dates in the digest's zone. */
export function weekRange(end: Date, now: Date, schedule: DigestSchedule): WeekRange {
  const start = new Date(end.getTime() - DIGEST_WINDOW_MS);
  return {
    start: start.toISOString(),
    end: end.toISOString(),
    startFormatted: formatDay(start, schedule.timezone),
    endFormatted: formatDay(end, schedule.timezone),
    nextUpdateFormatted: formatInTimeZone(nextSendAt(now, schedule), schedule.timezone, "EEEE, MMM d, yyyy 'at' h:mm a zzz"),
  };
}

/** The Agenda repeat rule: every Sunday at the hour (the zone is passed to Agenda separately). */
export function digestCron(sendHour: number): string {
  return `0 ${sendHour} * * 0`;
}
