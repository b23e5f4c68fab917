import { alpha, type Theme } from '@mui/material';
import { PREVIEW_CHARS, type UnifiedItem } from '@radar/contracts';
import { displayTags, formatDate, formatReleaseDate, formatServices, isNewItem, isUpdatedItem, itemSource, stripHtml, truncate } from '@radar/shared-ui';

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
  /** Message tags (at most 2 plus a count); roadmap rows show their status instead. */
  tags: ReturnType<typeof displayTags> | null;
}

/** Everything a list row shows, through shared-ui's presentation rules (spec 01 "Row presentation"). */
export function presentRow(item: UnifiedItem, now: Date): RowPresentation {
  const isMessage = itemSource(item) === 'messages';
  // A message can be both New and Updated; the tint then follows New (spec 01 Row presentation).
  const isNew = isNewItem(item, now);
  const isUpdated = isUpdatedItem(item, now);
  return {
    isNew,
    isUpdated,
    tint: isNew ? 'new' : isUpdated ? 'updated' : null,
    providerId: (isMessage ? item.messageId : item.itemId) ?? '',
    preview: truncate(stripHtml(item.summary) || stripHtml(item.description), PREVIEW_CHARS),
    productText: isMessage ? formatServices(item.service ?? item.services) : (item.product ?? ''),
    releaseText: formatReleaseDate(item.releaseDate),
    lastModifiedText: formatDate(isMessage ? (item.lastUpdatedDate ?? item.publishedDate) : (item.modifiedDate ?? item.createdDate)),
    tags: isMessage ? displayTags(item) : null,
  };
}

export function rowTint(theme: Theme, tint: RowPresentation['tint']) {
  if (tint === 'new') return alpha(theme.palette.success.main, 0.08);
  if (tint === 'updated') return alpha(theme.palette.info.main, 0.08);
  return undefined;
}
