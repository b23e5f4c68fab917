import type { ChipProps } from '@mui/material';
import { SYNC_SOURCE_LABELS, type FeedFormat, type SyncHistoryRecord } from '@radar/contracts';

/** The run's status as a chip: a word and a colour (the word carries the meaning; colour only helps). */
export const SYNC_STATUS_LABELS: Record<SyncHistoryRecord['status'], { label: string; color: ChipProps['color'] }> = {
  running: { label: 'Running', color: 'info' },
  success: { label: 'Success', color: 'success' },
  unchanged: { label: 'Unchanged', color: 'default' },
  held: { label: 'Held', color: 'warning' },
  failed: { label: 'Failed', color: 'error' },
  interrupted: { label: 'Interrupted', color: 'error' },
  not_configured: { label: 'Not configured', color: 'warning' },
};

/** What the run read. */
export const FEED_FORMAT_LABELS: Record<FeedFormat, string> = {
  v2: 'v2 API',
  json: 'v1 JSON feed',
  rss: 'RSS feed (fallback)',
  graph: 'Microsoft Graph',
  file: 'File import',
  demo: 'Demo data',
};

/** "unexpected: aiSummary (12 items); missing: moreInfoUrls (1,900 items)". */
export function describeDrift(drift: NonNullable<SyncHistoryRecord['drift']>): string {
  const list = (fields: { field: string; items: number }[]) =>
    fields.map((f) => `${f.field} (${f.items.toLocaleString('en-US')} ${f.items === 1 ? 'item' : 'items'})`).join(', ');
  return [drift.unexpected.length ? `unexpected: ${list(drift.unexpected)}` : '', drift.missing.length ? `missing: ${list(drift.missing)}` : '']
    .filter(Boolean)
    .join('; ');
}

export const syncSourceLabel = (source: SyncHistoryRecord['syncSource']) => SYNC_SOURCE_LABELS[source];
