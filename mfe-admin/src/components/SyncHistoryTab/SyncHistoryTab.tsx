import {
  Alert,
  Button,
  Chip,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { SyncHistoryRecord } from '@radar/contracts';
import { formatChangeDate } from '@radar/shared-ui';
import { useSyncHistory } from '../../api/admin.js';
import { errorMessageOf } from '../../api/admin-actions.js';
import { HeldSyncActions } from '../HeldSyncActions/index.js';
import { SYNC_TRIGGERS, useSyncTriggers, type SyncKind } from './sync-actions.js';
import { describeDrift, FEED_FORMAT_LABELS, SYNC_STATUS_LABELS, syncSourceLabel } from './sync-labels.js';

export { syncSourceLabel };

/**
 * Why the run ended as it did: a change of source for the worse (said once), the hold with its decision controls,
 * the error or a note (a fallback, a 304), and the feed's schema drift.
 */
function RunDetails({ run }: { run: SyncHistoryRecord }) {
  return (
    <Stack spacing={0.5}>
      {run.warning && (
        <Alert severity="warning" variant="outlined" sx={{ py: 0 }}>
          {run.warning}
        </Alert>
      )}
      {run.held ? <HeldSyncActions run={{ ...run, held: run.held }} /> : <span>{run.errorMessage ?? run.note ?? ''}</span>}
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

function SyncHistoryList() {
  const { data, error, isLoading } = useSyncHistory();
  if (error) return <Alert severity="error">Could not load the sync history ({errorMessageOf(error)}).</Alert>;
  if (isLoading || !data) return <Typography color="text.secondary">Loading sync history...</Typography>;
  if (data.syncHistory.length === 0) return <Typography color="text.secondary">No syncs have run yet.</Typography>;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Sync history">
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>Source</TableCell>
            <TableCell>Feed</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Processed</TableCell>
            <TableCell align="right">New</TableCell>
            <TableCell align="right">Changed</TableCell>
            <TableCell align="right">Removed</TableCell>
            <TableCell>Details</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.syncHistory.map((run) => (
            <TableRow key={run.id}>
              <TableCell>{formatChangeDate(run.syncDate)}</TableCell>
              <TableCell>{syncSourceLabel(run.syncSource)}</TableCell>
              <TableCell>{run.feedFormat ? FEED_FORMAT_LABELS[run.feedFormat] : ''}</TableCell>
              <TableCell>
                <Chip size="small" label={SYNC_STATUS_LABELS[run.status]?.label ?? run.status} color={SYNC_STATUS_LABELS[run.status]?.color ?? 'default'} />
              </TableCell>
              <TableCell align="right">
                {run.itemsProcessed} / {run.totalItems}
              </TableCell>
              <TableCell align="right">{run.newItems}</TableCell>
              <TableCell align="right">{run.changedItems}</TableCell>
              <TableCell align="right">{run.removedItems}</TableCell>
              <TableCell sx={{ maxWidth: 360, wordBreak: 'break-word' }}>
                <RunDetails run={run} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
