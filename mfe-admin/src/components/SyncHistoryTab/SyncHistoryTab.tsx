import { Alert, Button, Chip, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import type { SyncHistoryRecord } from '@radar/contracts';
import { formatChangeDate, useDisplayTimeZone } from '@radar/shared-ui';
import { useSyncHistory } from '../../api/admin.js';
import { AdminData } from '../AdminData/index.js';
import { AdminTable, ClampedText } from '../AdminTable/index.js';
import { HeldSyncActions } from '../HeldSyncActions/index.js';
import { SYNC_TRIGGERS, useSyncTriggers, type SyncKind } from './sync-actions.js';
import { describeDrift, FEED_FORMAT_LABELS, SYNC_STATUS_LABELS, syncSourceLabel } from './sync-labels.js';

export { syncSourceLabel };

/** The source, and for a tenant's Message Center run the tenant's name (as it was when the run was recorded). */
const sourceOf = (run: SyncHistoryRecord) => (run.tenant ? `${syncSourceLabel(run.syncSource)} · ${run.tenant.name}` : syncSourceLabel(run.syncSource));

/**
 * Why the run ended as it did: a change of source for the worse (said once), the hold with its decision controls,
 * the error or a note (a fallback, a 304), and the feed's schema drift.
 */
function RunDetails({ run }: { run: SyncHistoryRecord }) {
  return (
    <Stack spacing={0.5} sx={{ minWidth: 0 }}>
      {run.warning && (
        <Alert severity="warning" variant="outlined" sx={{ py: 0 }}>
          {run.warning}
        </Alert>
      )}
      {run.held ? <HeldSyncActions run={{ ...run, held: run.held }} /> : <ClampedText>{run.errorMessage ?? run.note ?? ''}</ClampedText>}
      {run.drift && (
        <Typography variant="body2" color="warning.main">
          Schema drift: {describeDrift(run.drift)}
        </Typography>
      )}
    </Stack>
  );
}

/** Sync History: the two triggers with their running state and last outcome, then the recorded runs. */
export function SyncHistoryTab() {
  const { running, outcomes, trigger } = useSyncTriggers();
  return (
    <Stack spacing={3}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Run a sync
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {(Object.keys(SYNC_TRIGGERS) as SyncKind[]).map((kind) => (
            <Button
              key={kind}
              variant="contained"
              disabled={running[kind]}
              onClick={() => trigger(kind)}
              startIcon={running[kind] ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
            >
              {running[kind] ? `Syncing ${SYNC_TRIGGERS[kind].label}...` : `Sync ${SYNC_TRIGGERS[kind].label}`}
            </Button>
          ))}
        </Stack>
        {(Object.keys(SYNC_TRIGGERS) as SyncKind[]).map((kind) => {
          const outcome = outcomes[kind];
          if (!outcome) return null;
          return (
            <Alert key={kind} severity={!outcome.ok ? 'error' : outcome.record?.status === 'held' ? 'warning' : 'success'} sx={{ mt: 2 }}>
              {SYNC_TRIGGERS[kind].label}: {outcome.message}
            </Alert>
          );
        })}
      </Paper>
      <SyncHistoryList />
    </Stack>
  );
}

/** What each count means (the column headers' tooltips). */
const HINTS = {
  processed:
    'Processed: the items the feed sent in this run; for Message Center, posts already past their end date are included and counted apart. After the slash: live items of the source after the run (removed and expired ones are in the archive).',
  firstSeen: 'Items seen for the first time in this run (expired posts included). Not the weekly digest\'s "new", which counts items created in its week.',
  changed: 'Items with a recorded change. Changes to expired posts are recorded but appear in no digest, which lists live items.',
};

/** "37 changed, all expired: not in digests" and the like, when changed items are expired. */
export function changedNote(run: Pick<SyncHistoryRecord, 'changedItems' | 'changedExpired'>): string | null {
  if (run.changedExpired === 0) return null;
  return run.changedExpired === run.changedItems ? 'all expired: not in digests' : `${run.changedExpired.toLocaleString('en-US')} expired: not in digests`;
}

function SyncHistoryList() {
  return (
    <AdminData
      answer={useSyncHistory()}
      what="sync history"
      failedWhat="the sync history"
      empty={{ when: (data) => data.syncHistory.length === 0, text: 'No syncs have run yet.' }}
    >
      {(data) => <SyncRuns runs={data.syncHistory} />}
    </AdminData>
  );
}

function SyncRuns({ runs }: { runs: SyncHistoryRecord[] }) {
  // UTC in a server render and its hydration, the reader's zone right after.
  const zone = useDisplayTimeZone();
  const muted = (text: string) => (
    <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
      {text}
    </Typography>
  );
  return (
    <AdminTable
      label="Sync history"
      rows={runs}
      rowKey={(run) => run.id}
      title={(run) => `${sourceOf(run)} · ${formatChangeDate(run.syncDate, zone)}`}
      columns={[
        { key: 'date', label: 'Date', nowrap: true, render: (run) => formatChangeDate(run.syncDate, zone) },
        { key: 'source', label: 'Source', render: (run) => sourceOf(run) },
        { key: 'feed', label: 'Feed', render: (run) => (run.feedFormat ? FEED_FORMAT_LABELS[run.feedFormat] : '') },
        {
          key: 'status',
          label: 'Status',
          render: (run) => (
            <Chip size="small" label={SYNC_STATUS_LABELS[run.status]?.label ?? run.status} color={SYNC_STATUS_LABELS[run.status]?.color ?? 'default'} />
          ),
        },
        {
          key: 'processed',
          label: 'Processed',
          align: 'right',
          hint: HINTS.processed,
          render: (run) => (
            <>
              {`${run.itemsProcessed.toLocaleString('en-US')} / ${run.totalItems.toLocaleString('en-US')}`}
              {run.expiredInFeed > 0
                ? muted(`${(run.itemsProcessed - run.expiredInFeed).toLocaleString('en-US')} active, ${run.expiredInFeed.toLocaleString('en-US')} expired`)
                : null}
            </>
          ),
        },
        { key: 'new', label: 'First seen', align: 'right', hint: HINTS.firstSeen, render: (run) => run.newItems.toLocaleString('en-US') },
        {
          key: 'changed',
          label: 'Changed',
          align: 'right',
          hint: HINTS.changed,
          render: (run) => {
            const note = changedNote(run);
            return (
              <>
                {run.changedItems.toLocaleString('en-US')}
                {note ? muted(note) : null}
              </>
            );
          },
        },
        { key: 'removed', label: 'Removed', align: 'right', render: (run) => run.removedItems.toLocaleString('en-US') },
        {
          key: 'details',
          label: 'Details',
          maxWidth: 360,
          render: (run) => <RunDetails run={run} />,
        },
      ]}
    />
  );
}
