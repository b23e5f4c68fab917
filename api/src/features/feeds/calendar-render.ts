import ical, { ICalCalendarMethod, ICalEventBusyStatus, ICalEventTransparency, type ICalEventData } from 'ical-generator';
import { PRODUCT_NAME } from '@radar/contracts';
import { shareUrlOf } from '../items/share-link.js';
import type { ReleaseItemRow } from './feed-items.repo.js';

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

/**
 * The release calendar of a view (ical-generator): one all-day event per roadmap item on the first day of its GA
 * month, and one for its preview month when it has one. Microsoft gives months only, so each event says so rather
 * than pretending to a day; events are free time (TRANSP:TRANSPARENT), so a subscribed calendar never blocks
 * anyone's schedule.
 *
 * UIDs are stable (`roadmap-<id>-ga@<host>`), SEQUENCE counts how often that date moved (from the change history,
 * so every process computes the same), and DTSTAMP is when it last moved: clients update the event in place.
 */
export function buildReleaseCalendar(rows: ReleaseItemRow[], meta: CalendarMeta): string {
  const host = new URL(meta.publicUrl).host;
  const calendar = ical({
    name: meta.view ? `${PRODUCT_NAME} releases: ${meta.view}` : `${PRODUCT_NAME} releases`,
    description: `General availability and preview months of Microsoft 365 Roadmap items${meta.view ? ` matching ${meta.view}` : ''}.`,
    prodId: { company: PRODUCT_NAME, product: 'Release calendar', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    // Clients that honour it refresh every 6 hours, the roadmap's sync interval.
    ttl: 6 * 60 * 60,
  });
  const drafts: (ICalEventData & { start: Date; id: string })[] = [];
  for (const row of rows) {
    const url = shareUrlOf(meta.publicUrl, row);
    const facts = [
      `Roadmap ID ${row.externalId}`,
      row.status ? `Status: ${row.status}` : null,
      row.products.length ? `Products: ${row.products.join(', ')}` : null,
      row.cloudInstances.length ? `Cloud instances: ${row.cloudInstances.join(', ')}` : null,
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
        categories: [{ name: e.label === 'GA' ? 'General availability' : 'Preview' }, ...row.products.map((name) => ({ name }))],
      });
    }
  }
  // In date order, so the file reads like the calendar it is.
  drafts.sort((a, b) => a.start.getTime() - b.start.getTime() || a.id.localeCompare(b.id));
  for (const draft of drafts) calendar.createEvent(draft);
  return calendar.toString();
}
