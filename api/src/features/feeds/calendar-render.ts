import ical, { ICalCalendarMethod, ICalEventBusyStatus, ICalEventTransparency, type ICalEventData } from 'ical-generator';
import { PRODUCT_NAME, ROLLOUT_RING_LABELS, ROLLOUT_RINGS, type TimingWindow } from '@radar/contracts';
import { shareUrlOf } from '../items/share-link.js';
import type { ReleaseItemRow, RolloutItemRow } from './feed-items.repo.js';
import type { FeedRelevance } from './feed-relevance.js';

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export interface CalendarMeta {
  view: string;
  publicUrl: string;
  /** First month of the calendar (`YYYY-MM`): events before it are left out. */
  fromMonth: string;
}

const monthLabel = (month: string) => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
/** `YYYY-MM` → the UTC dates of the first day of that month and of the next day. */
function firstDay(month: string): { start: Date; end: Date } {
  const start = new Date(`${month}-01T00:00:00Z`);
  return { start, end: new Date(start.getTime() + 24 * 60 * 60 * 1000) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A post's windows grouped by their dates: rings rolling out on the same days are one event. */
function windowGroups(timing: readonly TimingWindow[]): { start: string; end: string; label: string; rings: TimingWindow['ring'][] }[] {
  const groups = new Map<string, { start: string; end: string; label: string; rings: TimingWindow['ring'][] }>();
  for (const w of timing) {
    const key = `${w.start}/${w.end}`;
    const group = groups.get(key) ?? { start: w.start, end: w.end, label: w.label, rings: [] };
    group.rings.push(w.ring);
    groups.set(key, group);
  }
  for (const g of groups.values()) g.rings.sort((a, b) => ROLLOUT_RINGS.indexOf(a) - ROLLOUT_RINGS.indexOf(b));
  return [...groups.values()];
}

/**
 * The release calendar of a view (ical-generator): one all-day event per roadmap item on the first day of its GA
 * month, and one for its preview month when it has one; and for Message Center posts, one event spanning each of
 * their rollout windows (rings on the same days share one event). Microsoft gives months only for the roadmap, so
 * those events say so rather than pretending to a day; events are free time (TRANSP:TRANSPARENT), so a subscribed
 * calendar never blocks anyone's schedule.
 *
 * UIDs are stable (`roadmap-<id>-ga@<host>`, `messages-<id>-<ring>@<host>` by the group's first ring), SEQUENCE counts
 * how often that date moved (from the change history or the post's timing moves, so every process computes the
 * same), and DTSTAMP is when it last moved: clients update the event in place.
 *
 * For a signed-in reader (`relevance`), an item's events say its relevance in their description ("Relevance: High —
 * <reason>") and carry it as a category.
 */
export function buildReleaseCalendar(
  rows: ReleaseItemRow[],
  meta: CalendarMeta,
  rollouts: RolloutItemRow[] = [],
  relevance?: ReadonlyMap<number, FeedRelevance>,
): string {
  const host = new URL(meta.publicUrl).host;
  const calendar = ical({
    name: meta.view ? `${PRODUCT_NAME} releases: ${meta.view}` : `${PRODUCT_NAME} releases`,
    description: `General availability and preview months of roadmap items and rollout windows of Message Center posts${meta.view ? ` matching ${meta.view}` : ''}.`,
    prodId: { company: PRODUCT_NAME, product: 'Release calendar', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    // Clients that honour it refresh every 6 hours, the roadmap's sync interval.
    ttl: 6 * 60 * 60,
  });
  const drafts: (ICalEventData & { start: Date; id: string })[] = [];
  const relevanceOf = (itemId: number) => {
    const relevant = relevance?.get(itemId);
    return relevant ? { line: [relevant.line], category: [{ name: relevant.category }] } : { line: [], category: [] };
  };
  for (const row of rows) {
    const url = shareUrlOf(meta.publicUrl, row);
    const relevant = relevanceOf(row.id);
    const facts = [
      `Roadmap ID ${row.externalId}`,
      row.status ? `Status: ${row.status}` : null,
      row.products.length ? `Products: ${row.products.join(', ')}` : null,
      row.cloudInstances.length ? `Cloud instances: ${row.cloudInstances.join(', ')}` : null,
      ...relevant.line,
    ].filter(Boolean);
    const events = [
      { kind: 'ga', label: 'GA', month: row.gaMonth, text: row.releaseDate, moves: row.gaMoves, stamp: row.gaStampedAt },
      { kind: 'preview', label: 'Preview', month: row.previewMonth, text: row.previewDate, moves: row.previewMoves, stamp: row.previewStampedAt },
    ] as const;
    for (const e of events) {
      if (!e.month || e.month < meta.fromMonth) continue;
      const { start, end } = firstDay(e.month);
      drafts.push({
        id: `roadmap-${row.externalId}-${e.kind}@${host}`,
        allDay: true,
        start,
        end,
        summary: `${e.label}: ${row.title}`,
        description: [
          ...facts,
          `${e.label === 'GA' ? 'General availability' : 'Preview'}: ${e.text ?? monthLabel(e.month)} (Microsoft gives the month only; the event is on its first day)`,
          url,
        ].join('\n'),
        url,
        sequence: e.moves,
        stamp: e.stamp,
        lastModified: e.stamp,
        transparency: ICalEventTransparency.TRANSPARENT,
        busystatus: ICalEventBusyStatus.FREE,
        categories: [{ name: e.label === 'GA' ? 'General availability' : 'Preview' }, ...row.products.map((name) => ({ name })), ...relevant.category],
      });
    }
  }
  for (const post of rollouts) {
    const url = shareUrlOf(meta.publicUrl, post);
    const stamp = post.releaseMovedAt ?? post.firstSeenAt;
    const relevant = relevanceOf(post.id);
    for (const group of windowGroups(post.timing)) {
      if (group.end < `${meta.fromMonth}-01`) continue;
      const start = new Date(`${group.start}T00:00:00Z`);
      const rings = group.rings.map((r) => ROLLOUT_RING_LABELS[r]).join(', ');
      drafts.push({
        id: `messages-${post.externalId}-${group.rings[0]?.replace(/\s+/g, '-')}@${host}`,
        allDay: true,
        start,
        end: new Date(new Date(`${group.end}T00:00:00Z`).getTime() + DAY_MS),
        summary: `Rollout (${rings}): ${post.title}`,
        description: [post.externalId, post.products.length ? `Services: ${post.products.join(', ')}` : null, ...relevant.line, `${rings}: ${group.label}`, url]
          .filter(Boolean)
          .join('\n'),
        url,
        sequence: post.gaMoves,
        stamp,
        lastModified: stamp,
        transparency: ICalEventTransparency.TRANSPARENT,
        busystatus: ICalEventBusyStatus.FREE,
        categories: [{ name: 'Rollout' }, ...post.products.map((name) => ({ name })), ...relevant.category],
      });
    }
  }
  // In date order, so the file reads like the calendar it is.
  drafts.sort((a, b) => a.start.getTime() - b.start.getTime() || a.id.localeCompare(b.id));
  for (const draft of drafts) calendar.createEvent(draft);
  return calendar.toString();
}
