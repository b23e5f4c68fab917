import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import {
  ALERT_CHANNEL_KIND_LABELS,
  ALERT_CHANNEL_KINDS,
  ALERT_CHANNEL_NAME_MAX,
  routes,
  type AlertChannelKind,
  type CreatedAlertChannel,
} from '@radar/contracts';
import { ApiError, callEndpoint, confirmationDeclined, copyText, serverMessageOf, usePasskeyConfirmation, useToast } from '@radar/shared-ui';

const URL_HINTS: Record<Exclude<AlertChannelKind, 'email'>, string> = {
  teams: 'The URL of a Teams Workflow “When a Teams webhook request is received” (post to a channel)',
  slack: 'A Slack incoming webhook URL (https://hooks.slack.com/services/…)',
  webhook: 'Your https endpoint; requests are signed (X-Radar-Signature)',
};

function firstIssue(bodyText: string): { path: string; message: string } | undefined {
  try {
    return (JSON.parse(bodyText) as { error?: { issues?: { path: string; message: string }[] } }).error?.issues?.[0];
  } catch {
    return undefined;
  }
}

/** Adds a channel; a generic webhook's signing secret is shown once, with Copy. Admins may add organisation channels. */
export function AddChannelForm({ isAdmin, onAdded }: { isAdmin: boolean; onAdded: () => Promise<unknown> }) {
  const { toast } = useToast();
  // An admin confirms a new channel with their passkey when their last check is not recent.
  const confirmingFirst = usePasskeyConfirmation();
  const [kind, setKind] = useState<AlertChannelKind>('teams');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [organisation, setOrganisation] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<CreatedAlertChannel | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = 'Channel name is required';
    if (kind !== 'email' && !url.trim()) found.url = 'Webhook URL is required';
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const created = await confirmingFirst(() =>
        callEndpoint(routes.alerts.createChannel, {
          body: { kind, name, ...(kind === 'email' ? {} : { url }), scope: organisation && kind !== 'email' ? 'organisation' : 'personal' },
        }),
      );
      if (created.signingSecret) setSecret(created);
      toast({ title: 'Channel added', description: `“${created.name}” can now receive alerts. Use Send test to check it.` });
      setName('');
      setUrl('');
      await onAdded();
    } catch (err) {
      if (confirmationDeclined(err)) return;
      const issue = err instanceof ApiError ? firstIssue(err.bodyText) : undefined;
      if (issue && ['url', 'name', 'kind'].includes(issue.path)) setErrors({ [issue.path]: issue.message });
      else
        toast({
          title: 'Channel not added',
          description: serverMessageOf(err) || 'Failed to add the channel. Please try again.',
          variant: 'destructive',
        });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" onSubmit={(e) => void submit(e)} noValidate aria-label="Add a channel" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        Add a channel
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ alignItems: { md: 'flex-start' } }}>
        <TextField select size="small" label="Channel type" value={kind} onChange={(e) => setKind(e.target.value as AlertChannelKind)} sx={{ minWidth: 180 }}>
          {ALERT_CHANNEL_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {ALERT_CHANNEL_KIND_LABELS[k]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Channel name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name ?? ' '}
          slotProps={{ htmlInput: { maxLength: ALERT_CHANNEL_NAME_MAX } }}
          sx={{ minWidth: 200 }}
        />
        {kind === 'email' ? (
          <Typography color="text.secondary" sx={{ pt: 1, flex: 1 }}>
            Alerts go to your account's e-mail address.
          </Typography>
        ) : (
          <TextField
            size="small"
            label="Webhook URL"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={Boolean(errors.url)}
            helperText={errors.url ?? URL_HINTS[kind]}
            sx={{ flex: 1 }}
          />
        )}
        <Button type="submit" variant="contained" disabled={busy} sx={{ whiteSpace: 'nowrap' }}>
          {busy ? 'Adding...' : 'Add channel'}
        </Button>
      </Stack>
      {errors.kind ? (
        <Typography role="alert" color="error">
          {errors.kind}
        </Typography>
      ) : null}
      {isAdmin && kind !== 'email' ? (
        <FormControlLabel
          control={<Switch checked={organisation} onChange={(e) => setOrganisation(e.target.checked)} />}
          label="For the whole organisation (managed by every admin)"
        />
      ) : null}
      {secret ? (
        <Alert severity="success" sx={{ mt: 1 }} onClose={() => setSecret(null)} slotProps={{ closeButton: { 'aria-label': 'Done: hide the signing secret' } }}>
          <Typography sx={{ fontWeight: 600, mb: 1 }}>Copy the signing secret of “{secret.name}” now: it will not be shown again.</Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <TextField
              label="Signing secret"
              size="small"
              value={secret.signingSecret}
              fullWidth
              slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } } }}
            />
            <Button
              variant="outlined"
              onClick={() =>
                void copyText(secret.signingSecret ?? '').then(() =>
                  toast({ title: 'Signing secret copied', description: 'Keep it where your receiver verifies X-Radar-Signature.' }),
                )
              }
            >
              Copy
            </Button>
          </Stack>
        </Alert>
      ) : null}
    </Box>
  );
}
