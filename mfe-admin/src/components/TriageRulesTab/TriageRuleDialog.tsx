import { useEffect, useState } from 'react';
import { Autocomplete, Box, FormControl, FormControlLabel, FormHelperText, InputLabel, MenuItem, Select, Switch, TextField, Typography } from '@mui/material';
import { FormDialog, useDialogSave, type SaveProblems } from '../FormDialog/index.js';
import {
  TRACKER_KIND_LABELS,
  routes,
  TRIAGE_PRIORITIES,
  TRIAGE_PRIORITY_LABELS,
  TRIAGE_STATES,
  TRIAGE_STATE_LABELS,
  type TriagePerson,
  type TriagePriority,
  type TriageRule,
  type TriageRuleInput,
  type TriageState,
} from '@radar/contracts';
import { callEndpoint, useEndpoint, type DialogProps } from '@radar/shared-ui';
import { viewQueryOf, viewUrlOf } from './rule-view.js';

/** What Admin → Triage opens the dialog with. */
export interface TriageRuleDialogPayload {
  /** The rule to change; null adds one. */
  rule: TriageRule | null;
  /** Sends the rule: null when saved, else the problems by field ('query' for any part of it, 'setOwnerId', …). */
  save: (input: TriageRuleInput) => Promise<SaveProblems | null>;
}

/** Add or change a triage rule: when a new item matches a dashboard view, set owner, state and/or priority. */
export function TriageRuleDialog({ payload: { rule, save: send }, open, onClose }: DialogProps<TriageRuleDialogPayload>) {
  const { busy, problems, submit } = useDialogSave(send, () => onClose());
  const errors = problems.fields;
  const [name, setName] = useState(rule?.name ?? '');
  const [view, setView] = useState(rule ? viewUrlOf(rule.query) : '');
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [owner, setOwner] = useState<TriagePerson | null>(rule?.setOwner ?? null);
  const [state, setState] = useState<TriageState | ''>(rule?.setState ?? '');
  const [priority, setPriority] = useState<TriagePriority | ''>(rule?.setPriority ?? '');
  const [taskIn, setTaskIn] = useState<number | ''>(rule?.createTaskIn?.id ?? '');
  const trackers = useEndpoint(routes.trackers.list, {});
  const [search, setSearch] = useState('');
  const [people, setPeople] = useState<TriagePerson[]>([]);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      callEndpoint(routes.triage.people, { query: { search } }).then(
        (answer) => current && setPeople(answer.people),
        () => current && setPeople([]),
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [search]);

  const save = () =>
    void submit({
      name,
      enabled,
      query: viewQueryOf(view),
      setOwnerId: owner?.id ?? null,
      setState: state || null,
      setPriority: priority || null,
      createTaskIn: taskIn === '' ? null : taskIn,
    });

  return (
    <FormDialog
      title={rule ? 'Edit triage rule' : 'Add a triage rule'}
      open={open}
      busy={busy}
      saveDisabled={!name.trim()}
      onSave={save}
      onCancel={() => onClose()}
    >
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required error={Boolean(errors.name)} helperText={errors.name} />
      <TextField
        label="When a new item matches this dashboard view"
        value={view}
        onChange={(e) => setView(e.target.value)}
        placeholder="/dashboard?cloudInstances=GCC+High"
        error={Boolean(errors.query)}
        helperText={errors.query ?? 'Set the filters on the dashboard and paste its address here. Empty: every new item.'}
      />
      <Typography variant="subtitle2">Then set</Typography>
      <Autocomplete
        options={owner && !people.some((p) => p.id === owner.id) ? [owner, ...people] : people}
        value={owner}
        filterOptions={(x) => x}
        getOptionLabel={(p) => `${p.name} (${p.email})`}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onInputChange={(_, text) => setSearch(text)}
        onChange={(_, p) => setOwner(p)}
        renderInput={(params) => (
          <TextField {...params} label="Owner" placeholder="Don't change" error={Boolean(errors.setOwnerId)} helperText={errors.setOwnerId} />
        )}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormControl>
          <InputLabel id="rule-state-label">State</InputLabel>
          <Select labelId="rule-state-label" label="State" value={state} onChange={(e) => setState(e.target.value as TriageState | '')}>
            <MenuItem value="">
              <em>Don&apos;t change</em>
            </MenuItem>
            {TRIAGE_STATES.filter((s) => s !== 'new').map((s) => (
              <MenuItem key={s} value={s}>
                {TRIAGE_STATE_LABELS[s]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl>
          <InputLabel id="rule-priority-label">Priority</InputLabel>
          <Select labelId="rule-priority-label" label="Priority" value={priority} onChange={(e) => setPriority(e.target.value as TriagePriority | '')}>
            <MenuItem value="">
              <em>Don&apos;t change</em>
            </MenuItem>
            {TRIAGE_PRIORITIES.map((p) => (
              <MenuItem key={p} value={p}>
                {TRIAGE_PRIORITY_LABELS[p]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Box>
      <FormControl error={Boolean(errors.createTaskIn)}>
        <InputLabel id="rule-task-label">Create a task in</InputLabel>
        <Select labelId="rule-task-label" label="Create a task in" value={taskIn} onChange={(e) => setTaskIn(e.target.value ? Number(e.target.value) : '')}>
          <MenuItem value="">
            <em>No tracker</em>
          </MenuItem>
          {(trackers.data?.trackers ?? []).map((i) => (
            <MenuItem key={i.id} value={i.id}>
              {`${i.name} (${TRACKER_KIND_LABELS[i.kind]})`}
            </MenuItem>
          ))}
        </Select>
        <FormHelperText>{errors.createTaskIn ?? 'Each matching item is pushed there as a task (Admin → Trackers)'}</FormHelperText>
      </FormControl>
      <FormControlLabel control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />} label="Enabled" />
    </FormDialog>
  );
}
