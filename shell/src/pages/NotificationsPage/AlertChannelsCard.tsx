import { useState } from 'react';
import { Box, Button, Chip, FormControlLabel, List, ListItem, ListItemText, Stack, Switch, Typography } from '@mui/material';
import { ALERT_CHANNEL_KIND_LABELS, routes, type AlertChannel } from '@radar/contracts';
import { callEndpoint, confirmationDeclined, serverMessageOf, useDialogs, usePasskeyConfirmation, useToast } from '@radar/shared-ui';
import { ListState } from '../../components/ListState/index.js';
import { SectionCard } from '../../components/SectionCard/index.js';
import { AddChannelForm } from './AddChannelForm.js';
import { DeliveryLogDialog } from './DeliveryLogDialog.js';

export interface AlertChannelsCardProps {
  channels: AlertChannel[] | undefined;
  isLoading: boolean;
  failed: boolean;
  isAdmin: boolean;
  refresh: () => Promise<unknown>;
}

/**
 * Alert channels on /notifications: e-mail, Teams, Slack and webhooks (URLs masked), with Send test, the delivery log,
 * Pause / Resume (a channel paused after failures says why) and Delete; the add form below.
 */
export function AlertChannelsCard({ channels, isLoading, failed, isAdmin, refresh }: AlertChannelsCardProps) {
  const { toast } = useToast();
  const [logOf, setLogOf] = useState<AlertChannel | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  // An admin's changes to where alerts go want a recent passkey check: the server asks, the user confirms, it runs again.
  const confirmingFirst = usePasskeyConfirmation();

  const sendTest = async (c: AlertChannel) => {
    setTesting(c.id);
    try {
      const result = await callEndpoint(routes.alerts.testChannel, { params: { id: c.id } });
      toast(
        result.success ? { title: 'Test sent', description: result.message } : { title: 'Test failed', description: result.message, variant: 'destructive' },
      );
      await refresh();
    } catch (err) {
      toast({ title: 'Test failed', description: serverMessageOf(err) || 'Failed to send the test. Please try again.', variant: 'destructive' });
    } finally {
      setTesting(null);
    }
  };

  const setPaused = async (c: AlertChannel, paused: boolean) => {
    try {
      await confirmingFirst(() => callEndpoint(routes.alerts.updateChannel, { params: { id: c.id }, body: { paused } }));
      toast({ title: paused ? 'Channel paused' : 'Channel resumed', description: `“${c.name}”` });
      await refresh();
    } catch (err) {
      if (confirmationDeclined(err)) return;
      toast({ title: 'Channel not updated', description: serverMessageOf(err) || 'Failed to update the channel. Please try again.', variant: 'destructive' });
    }
  };

  const setTriageNotices = async (c: AlertChannel, triageNotices: boolean) => {
    try {
      await confirmingFirst(() => callEndpoint(routes.alerts.updateChannel, { params: { id: c.id }, body: { triageNotices } }));
      toast({
        title: triageNotices ? 'Triage notices on' : 'Triage notices off',
        description: triageNotices ? `Items given to you, mentions and due dates also go to “${c.name}”.` : `“${c.name}” gets alerts only.`,
      });
      await refresh();
    } catch (err) {
      if (confirmationDeclined(err)) return;
      toast({ title: 'Channel not updated', description: serverMessageOf(err) || 'Failed to update the channel. Please try again.', variant: 'destructive' });
    }
  };

  const remove = async (c: AlertChannel) => {
    try {
      await confirmingFirst(() => callEndpoint(routes.alerts.deleteChannel, { params: { id: c.id } }));
      toast({ title: 'Channel deleted', description: `Saved searches no longer send to “${c.name}”.` });
      await refresh();
    } catch (err) {
      if (confirmationDeclined(err)) return;
      toast({ title: 'Delete failed', description: serverMessageOf(err) || 'Failed to delete the channel. Please try again.', variant: 'destructive' });
    }
  };

  const dialogs = useDialogs();
  const ask = async (c: Parameters<typeof remove>[0]) => {
    if (await dialogs.confirm('Saved searches stop sending to this channel. This cannot be undone.', { title: `Delete “${c.name}”?`, okText: 'Delete' }))
      await remove(c);
  };

  return (
    <SectionCard id="alert-channels-title" title="Alert channels">
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Where saved searches send their alerts. Webhook URLs are stored encrypted and shown shortened. Switch on Triage notices to have your own channel also
        get what the triage mail tells you.
      </Typography>
      <ListState
        isLoading={isLoading}
        failed={failed}
        isEmpty={!channels?.length}
        loadingLabel="Loading alert channels"
        errorText="Failed to load your alert channels."
        emptyText="No alert channels yet"
      >
        <List disablePadding aria-label="Your alert channels">
          {(channels ?? []).map((c) => (
            <ListItem key={c.id} divider sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <span>{c.name}</span>
                    <Chip size="small" variant="outlined" label={ALERT_CHANNEL_KIND_LABELS[c.kind]} />
                    {c.scope === 'organisation' ? <Chip size="small" label="Organisation" /> : null}
                    {c.paused ? <Chip size="small" color="warning" label="Paused" /> : null}
                  </Stack>
                }
                secondary={[
                  c.target,
                  c.paused && c.pausedReason ? c.pausedReason : null,
                  !c.paused && c.consecutiveFailures > 0 ? `${c.consecutiveFailures} failed deliveries in a row` : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
                sx={{ minWidth: 240, flex: 1 }}
              />
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
                {c.scope === 'personal' && c.kind !== 'email' ? (
                  <FormControlLabel
                    control={<Switch size="small" checked={c.triageNotices} onChange={(e) => void setTriageNotices(c, e.target.checked)} />}
                    label="Triage notices"
                    title="Also post what is given to you, mentions of you, and your due and overdue items here"
                    slotProps={{ typography: { variant: 'body2' } }}
                  />
                ) : null}
                <Button size="small" onClick={() => void sendTest(c)} disabled={testing === c.id} aria-label={`Send test to ${c.name}`}>
                  {testing === c.id ? 'Sending...' : 'Send test'}
                </Button>
                <Button size="small" onClick={() => setLogOf(c)} aria-label={`Delivery log of ${c.name}`}>
                  Delivery log
                </Button>
                <Button size="small" onClick={() => void setPaused(c, !c.paused)} aria-label={`${c.paused ? 'Resume' : 'Pause'} ${c.name}`}>
                  {c.paused ? 'Resume' : 'Pause'}
                </Button>
                <Button size="small" color="error" onClick={() => void ask(c)} aria-label={`Delete channel ${c.name}`}>
                  Delete
                </Button>
              </Box>
            </ListItem>
          ))}
        </List>
      </ListState>
      <AddChannelForm isAdmin={isAdmin} onAdded={refresh} />
      {logOf ? <DeliveryLogDialog channel={logOf} onClose={() => setLogOf(null)} /> : null}
    </SectionCard>
  );
}
