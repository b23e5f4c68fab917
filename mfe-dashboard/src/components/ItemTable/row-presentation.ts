import type { Theme } from '@mui/material';
import { firstWindow, formatTiming, PREVIEW_CHARS, ROLLOUT_RING_LABELS, type UnifiedItem } from '@radar/contracts';
import {
  displayTags,
  formatDate,
  formatReleaseDate,
  formatServices,
  isNewItem,
  isUpdatedItem,
  itemSource,
  providerIdOf,
  stripHtml,
  truncate,
  type DisplayTimeZone,
} from '@radar/shared-ui';

export interface RowPresentation {
  isNew: boolean;
  isUpdated: boolean;
  /** 'new' is tinted green, 'updated' blue; New wins when both apply. */
  tint: 'new' | 'updated' | null;
  providerId: string;
  preview: string;
  productText: string;
  releaseText: string;
  lastModifiedText: string;
  /** Message tags in display order (ChipList shows the first few and a '+N'); roadmap rows show their status instead. */
  tags: string[] | null;
  /** Removed from the roadmap / expired (archive rows and items found by id); null while in the feed. */
  removal: Removal | null;
  /** The removal chip's text ('Removed Mar 5, 2026'), null while in the feed. */
  removalText: string | null;
  /** How often the roadmap GA and preview dates, or a post's rollout timing, moved. */
  dateMoves: number;
  /** Timing of Change: a post's first rollout window ("late Jul 2026 · Targeted Release"), a roadmap item's GA month. */
  timingText: string;
  /** Every rollout window of a post, for the cell's tooltip; '' when there is nothing more to say. */
  timingDetail: string;
}

export interface Removal {
  label: 'Removed' | 'Expired';
  /** ISO date it left the feed (messages: the end date when that passed first). */
  date: string | null;
  /** The item dialog's banner. */
  banner: string;
}

/**
 * A removed roadmap item says when it left the roadmap; an expired post says when it expired: its end date when
 * that came first (Graph drops a post after its end date), else the day it left the feed (withdrawn early).
 */
export function removalOf(item: Pick<UnifiedItem, 'source' | 'isRemoved' | 'removedAt' | 'endDate'>): Removal | null {
  // Service Health issues are kept for good: they never leave the list.
  if (!item.isRemoved || item.source === 'health') return null;
  if (item.source === 'roadmap') {
    const date = item.removedAt ?? null;
    return { label: 'Removed', date, banner: `Removed from the roadmap on ${formatDate(date)}` };
  }
  const end = item.endDate ?? null;
  const removed = item.removedAt ?? null;
  const date = end && (!removed || new Date(end).getTime() <= new Date(removed).getTime()) ? end : removed;
  return { label: 'Expired', date, banner: `Expired on ${formatDate(date)}` };
}

const MONTH_WORD = /\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/g;

/** The Timing of Change cell: the start of a post's first window with its ring, or a roadmap item's GA month. */
export function timingOf(item: Pick<UnifiedItem, 'source' | 'timing' | 'timingStart' | 'releaseDate'>): { text: string; detail: string } {
  if (item.source === 'roadmap') return { text: item.timingStart ? formatReleaseDate(item.releaseDate) : '—', detail: '' };
  const first = firstWindow(item.timing ?? []);
  if (!first) return { text: '—', detail: '' };
  const start = (first.label.split(' to ')[0] ?? first.label).replace(MONTH_WORD, (m) => m.slice(0, 3));
  const text = first.ring === 'general' ? start : `${start} · ${ROLLOUT_RING_LABELS[first.ring]}`;
  return { text, detail: formatTiming(item.timing ?? []) };
}

/**
 * Everything a list row shows, through shared-ui's presentation rules; dates in the
 * reader's zone unless a server render asks for UTC (useDisplayTimeZone).
 */
export function presentRow(item: UnifiedItem, now: Date, timeZone: DisplayTimeZone = 'local'): RowPresentation {
  const source = itemSource(item);
  const isMessage = source === 'messages';
  // Service Health issues read like posts (a service, published and updated), without tags: their status shows instead.
  const isIssue = source === 'health';
  // A message can be both New and Updated; the tint then follows New.
  const isNew = isNewItem(item, now);
  const isUpdated = isUpdatedItem(item, now);
  const removal = removalOf(item);
  return {
    isNew,
    isUpdated,
    tint: isNew ? 'new' : isUpdated ? 'updated' : null,
    providerId: providerIdOf(item),
    preview: truncate(stripHtml(item.summary) || stripHtml(item.description), PREVIEW_CHARS),
    productText: isMessage || isIssue ? formatServices(item.service ?? item.services) : (item.product ?? ''),
    releaseText: formatReleaseDate(item.releaseDate),
    lastModifiedText: formatDate(isMessage || isIssue ? (item.lastUpdatedDate ?? item.publishedDate) : (item.modifiedDate ?? item.createdDate), timeZone),
    tags: isMessage ? displayTags(item).all : null,
    removal,
    removalText: removal ? `${removal.label} ${formatDate(removal.date, timeZone)}` : null,
    dateMoves: item.releaseMoves?.total ?? 0,
    ...(({ text, detail }) => ({ timingText: text, timingDetail: detail }))(timingOf(item)),
  };
}

export function rowTint(theme: Theme, tint: RowPresentation['tint']) {
  if (tint === 'new') return theme.alpha((theme.vars ?? theme).palette.success.main, 0.08);
  if (tint === 'updated') return theme.alpha((theme.vars ?? theme).palette.info.main, 0.08);
  return undefined;
}
