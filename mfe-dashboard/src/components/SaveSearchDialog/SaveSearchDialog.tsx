import { useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import {
  ALERT_CHANNEL_KIND_LABELS,
  ALERT_SCHEDULES,
  routes,
  SAVED_SEARCH_NAME_MAX,
  WEEKDAY_NAMES,
  type AlertOn,
  type AlertSchedule,
  type AlertScope,
  type ItemListParams,
  type SavedSearch,
} from '@radar/contracts';
import { callEndpoint, confirmationDeclined, serverMessageOf, useEndpoint, usePasskeyConfirmation, useSession, useToast } from '@radar/shared-ui';

export interface SaveSearchDialogProps {
  /** The view to save (the list's query without paging). */
  query: ItemListParams;
  /** Saving over this search (opened from /notifications), or null for a new one. */
  editing: SavedSearch | null;
  /** True when "Since my last visit" is on: it is not saved, and the dialog says so. */
  droppedSinceLastVisit: boolean;
  onClose: () => void;
  onSaved: (saved: SavedSearch) => void;
}

const SCHEDULE_LABELS: Record<AlertSchedule, string> = { instant: 'Instantly (after each sync)', daily: 'Daily digest', weekly: 'Weekly digest' };
const EMAIL_CHOICE = -1;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const zones = () => {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes('UTC') ? all : ['UTC', ...all];
};

/**
 * "Save search": the current dashboard view under a name, with what to alert on, when, and where. Without an e-mail
 * channel yet, "E-mail me" creates it (to the account's address). Admins may save it for the whole organisation: it
 * then sends to organisation channels only (the server enforces both). Validation messages name the field.
 */
export function SaveSearchDialog({ query, editing, droppedSinceLastVisit, onClose, onSaved }: SaveSearchDialogProps) {
  const { toast } = useToast();
  const { isAdmin } = useSession();
  const channels = useEndpoint(routes.alerts.listChannels, {});
  const [scope, setScope] = useState<AlertScope>(editing?.scope ?? 'personal');
  const personal = useMemo(() => (channels.data ?? []).filter((c) => c.scope === scope), [channels.data, scope]);
  const hasEmail = scope !== 'personal' || personal.some((c) => c.kind === 'email');
  const [name, setName] = useState(editing?.name ?? '');
  const [alertOn, setAlertOn] = useState<AlertOn[]>(editing?.alertOn ?? ['new', 'changed']);
  const [schedule, setSchedule] = useState<AlertSchedule>(editing?.schedule ?? 'instant');
  const [hour, setHour] = useState(editing?.hour ?? 8);
  const [weekday, setWeekday] = useState(editing?.weekday ?? 1);
  const [timeZone, setTimeZone] = useState(editing?.timeZone ?? browserZone());
  const [selected, setSelected] = useState<number[]>(editing?.channelIds ?? []);
  const [errors, setErrors] = useState<{ name?: string; alertOn?: string }>({});
  const [busy, setBusy] = useState(false);

  // A new search goes to the user's e-mail by default (an alert without a channel reaches nobody): chosen once the
  // channels are known, and again after a switch back to personal (set while rendering, not in an effect).
  const [defaulted, setDefaulted] = useState(false);
  if (!defaulted && !editing && channels.data && scope === 'personal') {
    setDefaulted(true);
    const email = personal.find((c) => c.kind === 'email');
    if (selected.length === 0) setSelected([email ? email.id : EMAIL_CHOICE]);
  }

  const changeScope = (organisation: boolean) => {
    setScope(organisation ? 'organisation' : 'personal');
    // The channels of the other scope cannot receive this search.
    setSelected([]);
    setDefaulted(false);
  };

  const toggle = <T,>(list: T[], value: T) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

  // An admin's organisation search and a new e-mail channel want a recent passkey check: the server asks first.
  const confirmingFirst = usePasskeyConfirmation();

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    const trimmed = name.trim();
    if (!trimmed) found.name = 'Search name is required';
    else if (trimmed.length > SAVED_SEARCH_NAME_MAX) found.name = `Search name must be at most ${SAVED_SEARCH_NAME_MAX} characters`;
    if (alertOn.length === 0) found.alertOn = 'Choose at least one: new items, changed items, reached our tenant';
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      let channelIds = selected.filter((id) => id !== EMAIL_CHOICE);
      if (selected.includes(EMAIL_CHOICE))
        channelIds = [
          ...channelIds,
          (await confirmingFirst(() => callEndpoint(routes.alerts.createChannel, { body: { kind: 'email', name: 'My e-mail' } }))).id,
        ];
      const body = { name: trimmed, query, alertOn, schedule, hour, weekday, timeZone, channelIds, paused: editing?.paused ?? false, scope };
      const saved = await confirmingFirst(() =>
        editing ? callEndpoint(routes.alerts.updateSavedSearch, { params: { id: editing.id }, body }) : callEndpoint(routes.alerts.createSavedSearch, { body }),
      );
      toast({
        title: editing ? 'Saved search updated' : 'Search saved',
        description: `You will get alerts for “${saved.name}”. Manage them under Notifications.`,
      });
      onSaved(saved);
    } catch (err) {
      if (confirmationDeclined(err)) return;
      toast({
        title: 'Search not saved',
        description: serverMessageOf(err) || 'Failed to save the search. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="save-search-title" maxWidth="sm" fullWidth>
      <Box component="form" onSubmit={(e) => void save(e)} noValidate>
        <DialogTitle id="save-search-title">{editing ? `Save changes to “${editing.name}”` : 'Save search'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            {droppedSinceLastVisit ? <Alert severity="info">“Since my last visit” is not saved: alerts already tell you what is new or changed.</Alert> : null}
            <TextField
              autoFocus
              label="Search name"
              value={name}
              onChange={(ev) => setName(ev.target.value)}
              error={Boolean(errors.name)}
              helperText={errors.name ?? 'The search text, every filter and the sort are saved with it'}
              slotProps={{ htmlInput: { maxLength: SAVED_SEARCH_NAME_MAX + 20 } }}
            />
            <FormControl error={Boolean(errors.alertOn)} component="fieldset">
              <FormLabel component="legend">Alert me about</FormLabel>
              <FormGroup row>
                <FormControlLabel
                  control={<Checkbox checked={alertOn.includes('new')} onChange={() => setAlertOn(toggle(alertOn, 'new'))} />}
                  label="New items"
                />
                <FormControlLabel
                  control={<Checkbox checked={alertOn.includes('changed')} onChange={() => setAlertOn(toggle(alertOn, 'changed'))} />}
                  label="Changed items"
                />
                <FormControlLabel
                  control={<Checkbox checked={alertOn.includes('reached_tenant')} onChange={() => setAlertOn(toggle(alertOn, 'reached_tenant'))} />}
                  label="Reached our tenant (rollout status Launched)"
                />
              </FormGroup>
              {errors.alertOn ? <FormHelperText>{errors.alertOn}</FormHelperText> : null}
            </FormControl>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <TextField select label="When" value={schedule} onChange={(ev) => setSchedule(ev.target.value as AlertSchedule)} sx={{ minWidth: 200 }}>
                {ALERT_SCHEDULES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {SCHEDULE_LABELS[s]}
                  </MenuItem>
                ))}
              </TextField>
              {schedule === 'weekly' ? (
                <TextField select label="Day" value={weekday} onChange={(ev) => setWeekday(Number(ev.target.value))}>
                  {WEEKDAY_NAMES.map((d, i) => (
                    <MenuItem key={d} value={i}>
                      {d}
                    </MenuItem>
                  ))}
                </TextField>
              ) : null}
              {schedule !== 'instant' ? (
                <TextField select label="Hour" value={hour} onChange={(ev) => setHour(Number(ev.target.value))}>
                  {Array.from({ length: 24 }, (_, h) => (
                    <MenuItem key={h} value={h}>{`${String(h).padStart(2, '0')}:00`}</MenuItem>
                  ))}
                </TextField>
              ) : null}
            </Stack>
            {schedule !== 'instant' ? (
              <TextField select label="Time zone" value={timeZone} onChange={(ev) => setTimeZone(ev.target.value)} slotProps={{ select: { native: true } }}>
                {zones().map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </TextField>
            ) : null}
            {isAdmin && !editing ? (
              <FormControlLabel
                control={<Switch checked={scope === 'organisation'} onChange={(ev) => changeScope(ev.target.checked)} />}
                label="For the whole organisation (managed by every admin)"
              />
            ) : null}
            <FormControl component="fieldset">
              <FormLabel component="legend">Send alerts to</FormLabel>
              <FormGroup>
                {!hasEmail && !editing ? (
                  <FormControlLabel
                    control={<Checkbox checked={selected.includes(EMAIL_CHOICE)} onChange={() => setSelected(toggle(selected, EMAIL_CHOICE))} />}
                    label="E-mail me"
                  />
                ) : null}
                {personal.map((c) => (
                  <FormControlLabel
                    key={c.id}
                    control={<Checkbox checked={selected.includes(c.id)} onChange={() => setSelected(toggle(selected, c.id))} />}
                    label={`${c.name} (${ALERT_CHANNEL_KIND_LABELS[c.kind]})`}
                  />
                ))}
              </FormGroup>
              {scope === 'organisation' && personal.length === 0 ? <Typography sx={{ py: 1 }}>No organisation channels yet</Typography> : null}
              <FormHelperText>
                {scope === 'organisation'
                  ? 'An organisation search sends to organisation channels: add them under Notifications.'
                  : 'Add Microsoft Teams, Slack or webhook channels under Notifications.'}
              </FormHelperText>
            </FormControl>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? 'Saving...' : editing ? 'Save changes' : 'Save search'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
