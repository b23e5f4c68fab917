import { useState } from 'react';
import { Alert, Button, FormControl, InputLabel, MenuItem, Paper, Select, Stack, TextField, Typography } from '@mui/material';
import {
  TRIAGE_BULK_MAX,
  TRIAGE_PRIORITIES,
  TRIAGE_PRIORITY_LABELS,
  TRIAGE_STATES,
  TRIAGE_STATE_LABELS,
  type TriageItemType,
  type TriagePerson,
  type TriagePriority,
  type TriageState,
  type TriageUpdate,
} from '@radar/contracts';
import { serverMessageOf, useToast } from '@radar/shared-ui';
import { bulkPushTasks, bulkTriage, useTrackerTargets, useTriageRefresh } from '../../api/triage.js';
import { PeoplePicker } from '../PeoplePicker/index.js';

/** One record a bulk change touches: an item, and the tenant for an item triaged per tenant. */
export interface BulkTarget {
  itemType: TriageItemType;
  itemId: string;
  tenant?: number;
}

export interface BulkTriageBarProps {
  /** Every record of the chosen rows (an item triaged per tenant counts once per tenant). */
  targets: BulkTarget[];
  /** How many rows are chosen. */
  rows: number;
  onClear: () => void;
}

/**
 * Moderators' and admins' bulk triage: set the owner, state, priority or due date of every chosen row at once, or
 * push them all to a work tracker. The server applies it to all of them or to none, and says which row it refused.
 */
export function BulkTriageBar({ targets, rows, onClear }: BulkTriageBarProps) {
  const { toast } = useToast();
  const refresh = useTriageRefresh();
  const [owner, setOwner] = useState<TriagePerson | null>(null);
  const [state, setState] = useState<TriageState | ''>('');
  const [priority, setPriority] = useState<TriagePriority | ''>('');
  const [due, setDue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set: Omit<TriageUpdate, 'reset'> = {
    ...(owner ? { ownerId: owner.id } : {}),
    ...(state ? { state } : {}),
    ...(priority ? { priority } : {}),
    ...(due ? { dueDate: due } : {}),
  };
  const tooMany = targets.length > TRIAGE_BULK_MAX;
  const trackers = useTrackerTargets().data?.targets ?? [];
  const [tracker, setTracker] = useState<number | ''>('');

  const pushAll = async () => {
    if (tracker === '') return;
    setBusy(true);
    setError(null);
    try {
      const { queued } = await bulkPushTasks(targets, tracker);
      const name = trackers.find((t) => t.id === tracker)?.name ?? 'the tracker';
      toast({ title: 'Tasks queued', description: `${queued} ${queued === 1 ? 'task goes' : 'tasks go'} to ${name}.` });
      onClear();
      await refresh();
    } catch (e) {
      setError(serverMessageOf(e) ?? 'Could not push the items. Nothing was pushed.');
    } finally {
      setBusy(false);
    }
  };

  const apply = async () => {
    setBusy(true);
    setError(null);
    try {
      const { updated } = await bulkTriage(targets, set);
      toast({ title: 'Triage updated', description: `${updated} ${updated === 1 ? 'item' : 'items'} changed.` });
      onClear();
      await refresh();
    } catch (e) {
      setError(serverMessageOf(e) ?? 'Could not change the items. Nothing was changed.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-label="Bulk triage" sx={{ p: 1.5, mb: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 600 }} role="status">
          {rows} selected
        </Typography>
        <PeoplePicker label="Assign to" value={owner} onChange={setOwner} />
        <FormControl size="small" sx={{ minWidth: 150 }}>
          <InputLabel id="bulk-state-label">Set state</InputLabel>
          <Select labelId="bulk-state-label" label="Set state" value={state} onChange={(e) => setState(e.target.value as TriageState | '')}>
            <MenuItem value="">
              <em>Keep</em>
            </MenuItem>
            {TRIAGE_STATES.map((s) => (
              <MenuItem key={s} value={s}>
                {TRIAGE_STATE_LABELS[s]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" sx={{ minWidth: 140 }}>
          <InputLabel id="bulk-priority-label">Set priority</InputLabel>
          <Select labelId="bulk-priority-label" label="Set priority" value={priority} onChange={(e) => setPriority(e.target.value as TriagePriority | '')}>
            <MenuItem value="">
              <em>Keep</em>
            </MenuItem>
            {TRIAGE_PRIORITIES.map((p) => (
              <MenuItem key={p} value={p}>
                {TRIAGE_PRIORITY_LABELS[p]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TextField
          size="small"
          type="date"
          label="Set due date"
          value={due}
          onChange={(e) => setDue(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button variant="contained" disabled={busy || tooMany || Object.keys(set).length === 0} onClick={() => void apply()}>
          Apply to {rows} {rows === 1 ? 'row' : 'rows'}
        </Button>
        {trackers.length > 0 ? (
          <>
            <FormControl size="small" sx={{ minWidth: 170 }}>
              <InputLabel id="bulk-tracker-label">Create tasks in</InputLabel>
              <Select
                labelId="bulk-tracker-label"
                label="Create tasks in"
                value={tracker}
                onChange={(e) => setTracker(e.target.value ? Number(e.target.value) : '')}
              >
                <MenuItem value="">
                  <em>No tracker</em>
                </MenuItem>
                {trackers.map((t) => (
                  <MenuItem key={t.id} value={t.id}>
                    {t.name}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <Button variant="outlined" disabled={busy || tooMany || tracker === ''} onClick={() => void pushAll()}>
              Push {rows} {rows === 1 ? 'row' : 'rows'}
            </Button>
          </>
        ) : null}
        <Button onClick={onClear} disabled={busy}>
          Clear selection
        </Button>
      </Stack>
      {tooMany ? (
        <Alert severity="warning" sx={{ mt: 1 }}>
          At most {TRIAGE_BULK_MAX} items can be changed at once; {targets.length} are chosen.
        </Alert>
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
    </Paper>
  );
}
