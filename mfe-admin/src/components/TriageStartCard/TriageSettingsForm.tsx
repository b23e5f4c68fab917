import { useId, useState } from 'react';
import { Alert, Box, Button, FormControlLabel, Stack, Switch, TextField, Typography } from '@mui/material';
import { routes, TRIAGE_START_WINDOW_MAX_DAYS, triageSettingsUpdate, type TriageSettings, type TriageSettingsUpdate } from '@radar/contracts';
import { callEndpoint, serverMessageOf } from '@radar/shared-ui';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { fieldErrorsOf, formErrorsOf } from '../../api/field-errors.js';
import { START_KEY } from './start-key.js';

/**
 * The triage settings: the start window (how far before the starting line an act-by date may lie and still open a
 * record) and whether every upcoming roadmap item gets a record. Checked with the API's own schema, saved with Save.
 */
export function TriageSettingsForm({ settings }: { settings: TriageSettings }) {
  const run = useAdminAction();
  const titleId = useId();
  const switchErrorId = useId();
  const [days, setDays] = useState(String(settings.startWindowDays));
  const [openUpcoming, setOpenUpcoming] = useState(settings.openUpcomingRoadmap);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const body: TriageSettingsUpdate = { startWindowDays: days.trim() === '' ? Number.NaN : Number(days), openUpcomingRoadmap: openUpcoming };
  const parsed = triageSettingsUpdate.safeParse(body);
  const problems = formErrorsOf(parsed);
  const problemOf = (field: keyof TriageSettingsUpdate) => (tried ? problems[field] : undefined) ?? serverErrors[field];

  const save = async () => {
    setTried(true);
    if (!parsed.success) return;
    setBusy(true);
    setServerErrors({});
    setServerError(null);
    const outcome = await run(() => callEndpoint(routes.triage.updateSettings, { body: parsed.data }), {
      success: { title: 'Triage settings saved' },
      failure: (e) => `Could not save the triage settings: ${errorMessageOf(e)}`,
      revalidate: [START_KEY],
    });
    setBusy(false);
    if (!outcome.ok) {
      const fields = fieldErrorsOf(outcome.error);
      setServerErrors(fields);
      const known = ['startWindowDays', 'openUpcomingRoadmap'];
      const other = Object.entries(fields).find(([field]) => !known.includes(field))?.[1];
      setServerError(other ?? (Object.keys(fields).length ? null : (serverMessageOf(outcome.error) ?? errorMessageOf(outcome.error))));
    }
  };

  return (
    <Box
      component="form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack spacing={2}>
        <Typography id={titleId} variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
          Settings
        </Typography>
        <TextField
          type="number"
          label="Start window (days)"
          value={days}
          onChange={(event) => setDays(event.target.value)}
          error={Boolean(problemOf('startWindowDays'))}
          helperText={problemOf('startWindowDays') ?? 'A post whose act-by date lies up to this many days before the starting line still opens a record'}
          slotProps={{ htmlInput: { min: 0, max: TRIAGE_START_WINDOW_MAX_DAYS, step: 1 } }}
          sx={{ maxWidth: 480 }}
        />
        <Box>
          <FormControlLabel
            control={
              <Switch
                checked={openUpcoming}
                onChange={(event) => setOpenUpcoming(event.target.checked)}
                slotProps={{ input: { 'aria-describedby': problemOf('openUpcomingRoadmap') ? switchErrorId : undefined } }}
              />
            }
            label="Open a record for every upcoming roadmap item"
          />
          {problemOf('openUpcomingRoadmap') ? (
            <Typography id={switchErrorId} variant="caption" color="error" component="p">
              {problemOf('openUpcomingRoadmap')}
            </Typography>
          ) : null}
        </Box>
        {serverError ? <Alert severity="error">{serverError}</Alert> : null}
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? 'Saving...' : 'Save'}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
