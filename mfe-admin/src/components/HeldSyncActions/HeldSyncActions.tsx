import { Button, Stack, Typography } from '@mui/material';
import { formatCount, type SyncHistoryRecord } from '@radar/contracts';
import { formatChangeDate, useDialogs } from '@radar/shared-ui';
import { ADMIN_KEYS, isSyncAffectedKey } from '../../api/admin.js';
import { failureWithReason, useAdminAction } from '../../api/admin-actions.js';
import { adminWrites } from '../../api/admin-writes.js';
import { syncSourceLabel } from '../SyncHistoryTab/sync-labels.js';

export interface HeldSyncActionsProps {
  /** A sync run the snapshot guard held (`run.held` set). */
  run: SyncHistoryRecord & { held: NonNullable<SyncHistoryRecord['held']> };
}

const sourceLabel = (run: SyncHistoryRecord) => syncSourceLabel(run.syncSource);
const count = (n: number) => n.toLocaleString('en-US');
/** Applying changes items like any sync (history, change history and analytics refresh); discarding only the run. */
const DECISIONS = {
  apply: { done: 'Snapshot Applied', failed: 'Apply Failed', run: adminWrites.applyHeldSync, revalidate: isSyncAffectedKey },
  discard: { done: 'Snapshot Discarded', failed: 'Discard Failed', run: adminWrites.discardHeldSync, revalidate: ADMIN_KEYS.syncHistory },
} as const;

/** What became of a held snapshot once it is no longer waiting. */
function decision(run: HeldSyncActionsProps['run']): string {
  const { held } = run;
  const when = held.decidedAt ? ` on ${formatChangeDate(held.decidedAt)}` : '';
  if (held.status === 'applied')
    return `Applied anyway by ${held.decidedBy ?? 'an admin'}${when}${held.appliedSyncId ? ` (sync #${held.appliedSyncId})` : ''}.`;
  if (held.status === 'discarded') return `Discarded by ${held.decidedBy ?? 'an admin'}${when}.`;
  return 'Superseded: a newer snapshot of this source was applied or held, so this one can no longer be applied.';
}

/**
 * The held-sync cell of the Sync History table: why the snapshot was held and, while it waits, "Apply anyway"
 * (applies exactly the stored snapshot, after a confirmation naming what it removes) and "Discard".
 */
export function HeldSyncActions({ run }: HeldSyncActionsProps) {
  const dialogs = useDialogs();
  const act = useAdminAction();
  const { held } = run;
  const label = sourceLabel(run);

  const decide = (action: 'apply' | 'discard') =>
    act(() => DECISIONS[action].run(run.id), {
      success: (result) => ({ title: DECISIONS[action].done, description: result.message }),
      failureTitle: DECISIONS[action].failed,
      failure: (error) => failureWithReason(`Failed to ${action} the snapshot of sync #${run.id}`, error),
      revalidate: [DECISIONS[action].revalidate],
    });

  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2">{held.reason}</Typography>
      {held.status === 'pending' ? (
        <Stack direction="row" spacing={1}>
          <Button
            size="small"
            variant="contained"
            color="warning"
            aria-label={`Apply anyway: sync #${run.id}`}
            onClick={() =>
              void dialogs.confirm(
                `Apply the ${label} snapshot held by sync #${run.id} exactly as it was fetched? It has ${formatCount(held.itemCount, 'item')} and will mark ${count(held.wouldRemove)} of the ${formatCount(held.activeBefore, 'live item')} removed; followers of those items get mail.`,
                {
                  title: 'Apply held snapshot',
                  okText: 'Apply anyway',
                  action: () => decide('apply'),
                },
              )
            }
          >
            Apply anyway
          </Button>
          <Button
            size="small"
            variant="outlined"
            aria-label={`Discard: sync #${run.id}`}
            onClick={() =>
              void dialogs.confirm(
                `Discard the ${label} snapshot held by sync #${run.id}? Nothing of it is applied; the next scheduled sync fetches the feed again.`,
                {
                  title: 'Discard held snapshot',
                  okText: 'Discard',
                  action: () => decide('discard'),
                },
              )
            }
          >
            Discard
          </Button>
        </Stack>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {decision(run)}
        </Typography>
      )}
    </Stack>
  );
}
