import { NEW_WINDOW_DAYS, UPDATED_MESSAGE_MIN_GAP_MS, type Source, type UnifiedItem } from '@radar/contracts';
import { SERVICE_DISPLAY_LIMIT, TAG_DISPLAY_LIMIT } from './ui-constants.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const WINDOW_MS = NEW_WINDOW_DAYS * DAY_MS;

/** The fields the row rules read; every one optional so featured cards and digest rows fit too. */
export type PresentableItem = Partial<
  Pick<
    UnifiedItem,
    'source' | 'messageId' | 'createdDate' | 'modifiedDate' | 'publishedDate' | 'lastUpdatedDate' | 'tags' | 'userImpact' | 'adminImpact' | 'isMajorChange'
  >
>;

function time(value: string | null | undefined): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** An item without a source is a Message Center post when it has a messageId, else a roadmap item (docs/product/dashboard.md). */
export function itemSource(item: PresentableItem): Source {
  if (item.source) return item.source;
  return item.messageId ? 'messages' : 'roadmap';
}

/** The provider's id of an item: the roadmap id, the Message Center id or the Service Health issue id. */
export function providerIdOf(item: Pick<UnifiedItem, 'source' | 'itemId' | 'messageId'> & { issueId?: string | null }): string {
  return (item.source === 'roadmap' ? item.itemId : item.source === 'health' ? item.issueId : item.messageId) ?? '';
}

const withinWindow = (ms: number | null, now: Date) => ms !== null && now.getTime() - ms <= WINDOW_MS && ms <= now.getTime();

/** New: created (roadmap) or published (message, Service Health issue) within the last 7 days. */
export function isNewItem(item: PresentableItem, now: Date): boolean {
  const started = itemSource(item) !== 'roadmap' ? (time(item.publishedDate) ?? time(item.createdDate)) : time(item.createdDate);
  return withinWindow(started, now);
}

/**
 * Updated. Message or Service Health issue: last update at least 1 hour after publication and within the last 7 days.
 * Roadmap: created more than 7 days ago, modified within the last 7 days and after creation.
 */
export function isUpdatedItem(item: PresentableItem, now: Date): boolean {
  if (itemSource(item) !== 'roadmap') {
    const published = time(item.publishedDate);
    const updated = time(item.lastUpdatedDate);
    if (published === null || updated === null) return false;
    return updated - published >= UPDATED_MESSAGE_MIN_GAP_MS && withinWindow(updated, now);
  }
  const created = time(item.createdDate);
  const modified = time(item.modifiedDate);
  if (created === null || modified === null) return false;
  return now.getTime() - created > WINDOW_MS && withinWindow(modified, now) && modified > created;
}

const HIDDEN_TAGS = ['updated message', 'new message'];
const PRIORITY_TAGS = [
  { label: 'USER IMPACT', tag: 'user impact', flag: 'userImpact' },
  { label: 'ADMIN IMPACT', tag: 'admin impact', flag: 'adminImpact' },
  { label: 'Major change', tag: 'major change', flag: 'isMajorChange' },
] as const;

export interface DisplayTags {
  /** At most 2 tags, impact and major-change first. */
  visible: string[];
  /** How many more there are (shown as '+N'); 0 when none. */
  hiddenCount: number;
  /** Every tag in display order (for tooltips and dialogs). */
  all: string[];
}

/** Message tags for a row. */
export function displayTags(item: PresentableItem, limit: number = TAG_DISPLAY_LIMIT): DisplayTags {
  const tags = item.tags ?? [];
  const lower = tags.map((t) => t.trim().toLowerCase());
  const first = PRIORITY_TAGS.filter((p) => item[p.flag] === true || lower.includes(p.tag)).map((p) => p.label);
  const skip = new Set<string>([...HIDDEN_TAGS, ...PRIORITY_TAGS.map((p) => p.tag)]);
  const rest = tags.filter((t, i) => !skip.has(lower[i]) && lower.indexOf(lower[i]) === i);
  const all = [...first, ...rest];
  return { visible: all.slice(0, limit), hiddenCount: Math.max(0, all.length - limit), all };
}

export type StatusColor = 'blue' | 'green' | 'grey' | 'red' | 'default';

/**
 * Roadmap status badge colour: in development blue, rolling out green, launched grey, cancelled red, anything else
 * the default. Launched and the default are both grey, told apart by the badge (solid for launched, outlined for a
 * status we do not know), so Launched has a colour of its own wherever the badge appears.
 */
export function roadmapStatusColor(status: string | null | undefined): StatusColor {
  switch ((status ?? '').trim().toLowerCase()) {
    case 'in development':
      return 'blue';
    case 'rolling out':
      return 'green';
    case 'launched':
      return 'grey';
    case 'cancelled':
      return 'red';
    default:
      return 'default';
  }
}

/** Message services: the first 3, then ', +N more'. Accepts a list or a comma-separated string. */
export function formatServices(services: string[] | string | null | undefined, limit: number = SERVICE_DISPLAY_LIMIT): string {
  const list = (Array.isArray(services) ? services : (services ?? '').split(',')).map((s) => s.trim()).filter(Boolean);
  const shown = list.slice(0, limit).join(', ');
  return list.length > limit ? `${shown}, +${list.length - limit} more` : shown;
}
