import type { FeatureStatusEntry, TimingWindow } from './message-center.js';

/**
 * Rollout timing and the tenant's rollout status for readers: labels, ordering, spans, moves. Plain functions without
 * zod (the schemas are in message-center.ts), so the dashboard's first paint can format a row without loading it.
 */

/**
 * Rings a rollout window belongs to, as posts name them: Targeted Release (and the other early-access rings),
 * Standard and Deferred Release, the government clouds, and `general` for general availability worldwide (or a line
 * that names no ring).
 */
export const ROLLOUT_RINGS = ['Targeted', 'Standard', 'Deferred', 'GCC', 'GCC High', 'DoD', 'general'] as const;
export type RolloutRing = (typeof ROLLOUT_RINGS)[number];

/** How a ring is named to readers. */
export const ROLLOUT_RING_LABELS: Record<RolloutRing, string> = {
  Targeted: 'Targeted Release',
  Standard: 'Standard Release',
  Deferred: 'Deferred Release',
  GCC: 'GCC',
  'GCC High': 'GCC High',
  DoD: 'DoD',
  general: 'General availability',
};

/** Where a post's rollout stands for the tenant, per platform (Graph `details.FeatureStatusJson`). */
export const FEATURE_STATUS_LABELS: Record<string, string> = {
  FeatureRolloutStatusNotSupported: 'Not supported',
  Scheduled: 'Scheduled',
  InRollout: 'Rolling out',
  Launched: 'Launched',
};

/** Windows as one line for history values and mails: "Targeted Release: late July 2026; General availability: …". */
export function formatTiming(windows: readonly TimingWindow[]): string {
  return windows.map((w) => `${ROLLOUT_RING_LABELS[w.ring] ?? w.ring}: ${w.label}`).join('; ');
}

/** The stored FeatureStatusJson (`{ "<roadmap id>": [{ RoadmapId, Platform, Status, … }] }`) as entries, in order. */
export function featureStatusEntries(value: unknown): FeatureStatusEntry[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const entries: FeatureStatusEntry[] = [];
  for (const [key, list] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      if (!raw || typeof raw !== 'object') continue;
      const r = raw as { RoadmapId?: unknown; Platform?: unknown; Status?: unknown };
      if (typeof r.Platform !== 'string' || typeof r.Status !== 'string') continue;
      const roadmapId = r.RoadmapId !== undefined && r.RoadmapId !== null ? String(r.RoadmapId) : /^\d+$/.test(key) ? key : null;
      entries.push({
        roadmapId,
        platform: r.Platform,
        status: r.Status,
        label: FEATURE_STATUS_LABELS[r.Status] ?? r.Status.replace(/([a-z])([A-Z])/g, '$1 $2'),
      });
    }
  }
  return entries;
}

/** "Mac: Not supported; Web: Launched" (one line per value, for history and mails). */
export function formatFeatureStatus(value: unknown): string {
  return featureStatusEntries(value)
    .map((e) => `${e.platform}: ${e.label}`)
    .join('; ');
}

const monthsOf = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;

/** The order windows are shown in: by start, then end, then ring (early rings first, general availability last). */
export const compareWindows = (a: TimingWindow, b: TimingWindow) =>
  a.start.localeCompare(b.start) || a.end.localeCompare(b.end) || ROLLOUT_RINGS.indexOf(a.ring) - ROLLOUT_RINGS.indexOf(b.ring);

/** The earliest start and the latest end of the windows (the list's Timing column and its rolling-out filter). */
export function timingSpan(windows: readonly TimingWindow[]): { start: string; end: string } | null {
  const [first, ...rest] = windows;
  if (!first) return null;
  const span = { start: first.start, end: first.end };
  for (const w of rest) {
    if (w.start < span.start) span.start = w.start;
    if (w.end > span.end) span.end = w.end;
  }
  return span;
}

/** The window a post's timing starts with (earliest start; on a tie the general availability one). */
export function firstWindow(windows: readonly TimingWindow[]): TimingWindow | null {
  let first: TimingWindow | null = null;
  for (const w of windows) if (!first || w.start < first.start || (w.start === first.start && w.ring === 'general')) first = w;
  return first;
}

/** The first window as one phrase for a reader: "late July 2026 (Targeted Release)". */
export const windowText = (w: TimingWindow) => `${w.label} (${ROLLOUT_RING_LABELS[w.ring] ?? w.ring})`;

/**
 * A move of a post's rollout timing (a date slip, as for a roadmap GA date): a ring's window starts or ends on other
 * days than before. Timing first given or withdrawn is not a move; nor is a new wording of the same dates. The move
 * reported is the ring whose new window starts first (general availability on a tie), with the months its start moved
 * (its end's when only the end moved); rings that came or went count only when no common ring moved.
 */
export function timingMove(before: unknown, after: unknown): { from: string; to: string; shiftMonths: number } | null {
  const a = { data: isTimingList(before) ? before : [] };
  const b = { data: isTimingList(after) ? after : [] };
  if (a.data.length === 0 || b.data.length === 0) return null;
  const moves: { from: TimingWindow; to: TimingWindow }[] = [];
  for (const to of b.data) {
    const from = a.data.find((w) => w.ring === to.ring);
    if (from && (from.start !== to.start || from.end !== to.end) && !moves.some((m) => m.to.ring === to.ring)) moves.push({ from, to });
  }
  const first = firstWindow(moves.map((m) => m.to));
  const move = first ? moves.find((m) => m.to === first) : null;
  const [x, y] = [timingSpan(a.data), timingSpan(b.data)];
  const pair = move ?? (x && y && (x.start !== y.start || x.end !== y.end) ? { from: firstWindow(a.data), to: firstWindow(b.data) } : null);
  if (!pair?.from || !pair.to) return null;
  const shiftMonths = pair.from.start !== pair.to.start ? monthsOf(pair.to.start) - monthsOf(pair.from.start) : monthsOf(pair.to.end) - monthsOf(pair.from.end);
  return { from: windowText(pair.from), to: windowText(pair.to), shiftMonths };
}

/** Statuses of a rollout not yet at the tenant: scheduled, or rolling out (Graph's spellings, old and new). */
const ON_THE_WAY = new Set(['Scheduled', 'InRollout', 'Rollingout', 'FeatureRolloutStatusInProgress', 'FeatureRolloutStatusScheduled']);

/**
 * The platforms on which a post "reached your tenant" between two versions of its FeatureStatusJson: the status
 * Microsoft reports for the organisation went from scheduled or rolling out to Launched. ["Web", "Desktop"]; [] when
 * none did.
 */
export function reachedTenant(before: unknown, after: unknown): string[] {
  const was = new Map(featureStatusEntries(before).map((e) => [`${e.roadmapId}:${e.platform}`, e.status]));
  const reached = featureStatusEntries(after).filter((e) => e.status === 'Launched' && ON_THE_WAY.has(was.get(`${e.roadmapId}:${e.platform}`) ?? ''));
  return [...new Set(reached.map((e) => e.platform))];
}

const DAY = /^\d{4}-\d\d-\d\d$/;

/** A stored timing value (history entries hold them as JSON): a list of windows with a known ring and days. */
export function isTimingList(value: unknown): value is TimingWindow[] {
  return (
    Array.isArray(value) &&
    value.every(
      (w) =>
        w !== null &&
        typeof w === 'object' &&
        (ROLLOUT_RINGS as readonly string[]).includes((w as TimingWindow).ring) &&
        typeof (w as TimingWindow).label === 'string' &&
        DAY.test(String((w as TimingWindow).start)) &&
        DAY.test(String((w as TimingWindow).end)),
    )
  );
}
