import type { ChipProps } from '@mui/material';
import type { FeedFormat, SyncHistoryRecord } from '@radar/contracts';

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
  json: 'JSON feed',
  rss: 'RSS feed (fallback)',
  graph: 'Microsoft Graph',
  file: 'File import',
  demo: 'Demo data',
};

export const syncSourceLabel = (source: SyncHistoryRecord['syncSource']) => (source === 'roadmap' ? 'Roadmap' : 'Message Center');
