import { useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { describeAlertOn, describeSchedule, routes, SAVED_SEARCH_NAME_MAX, type AlertChannel, type SavedSearch } from '@radar/contracts';
import { callEndpoint, confirmationDeclined, serverMessageOf, useDialogs, useEndpoint, usePasskeyConfirmation, useToast } from '@radar/shared-ui';
import { ListState } from '../../components/ListState/index.js';
import { SectionCard } from '../../components/SectionCard/index.js';

/** The body of a PUT: the saved search as it is, with some fields changed (PUT replaces the whole search). */
const replacement = (s: SavedSearch, change: Partial<SavedSearch>) => {
  const next = { ...s, ...change };
  return {
    name: next.name,
    query: next.query,
    alertOn: next.alertOn,
    schedule: next.schedule,
    hour: next.hour,
    weekday: next.weekday,
    timeZone: next.timeZone,
    channelIds: next.channelIds,
    paused: next.paused,
    scope: next.scope,
  };
};

/**
 * Saved searches on /notifications: each with its alert settings and channels; Open it on the dashboard (to change
 * its filters and save over it), Rename, Pause / Resume, Delete (asks first).
 */
export function SavedSearchesCard({ channels }: { channels: AlertChannel[] }) {
  const { data, isLoading: fetching, error, mutate } = useEndpoint(routes.alerts.listSavedSearches, {});
  // Loading only while there is nothing to show: the answer a server-rendered page arrived with is shown at once
  // (SWR counts it as loading until its own request returns).
  const isLoading = fetching && data === undefined;
  const { toast } = useToast();
  const [renaming, setRenaming] = useState<SavedSearch | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  // An admin's changes to an organisation search want a recent passkey check: the server asks, the user confirms.
  const confirmingFirst = usePasskeyConfirmation();
  const channelName = (id: number) => channels.find((c) => c.id === id)?.name ?? `Channel ${id}`;

  const update = async (s: SavedSearch, change: Partial<SavedSearch>, done: string) => {
    try {
      await confirmingFirst(() => callEndpoint(routes.alerts.updateSavedSearch, { params: { id: s.id }, body: replacement(s, change) }));
      toast({ title: done, description: `“${change.name ?? s.name}”` });
      await mutate();
      return true;
    } catch (err) {
      if (confirmationDeclined(err)) return false;
      toast({
        title: 'Saved search not updated',
        description: serverMessageOf(err) || 'Failed to update the saved search. Please try again.',
        variant: 'destructive',
      });
      return false;
    }
  };

  const rename = async (e: FormEvent) => {
    e.preventDefault();
    if (!renaming) return;
    const trimmed = name.trim();
    if (!trimmed) return setNameError('Search name is required');
    if (trimmed.length > SAVED_SEARCH_NAME_MAX) return setNameError(`Search name must be at most ${SAVED_SEARCH_NAME_MAX} characters`);
    if (await update(renaming, { name: trimmed }, 'Saved search renamed')) setRenaming(null);
  };

  const remove = async (s: SavedSearch) => {
    try {
      await confirmingFirst(() => callEndpoint(routes.alerts.deleteSavedSearch, { params: { id: s.id } }));
      toast({ title: 'Saved search deleted', description: `“${s.name}” no longer sends alerts.` });
      await mutate();
    } catch (err) {
      if (confirmationDeclined(err)) return;
      toast({ title: 'Delete failed', description: serverMessageOf(err) || 'Failed to delete the saved search. Please try again.', variant: 'destructive' });
    }
  };

  const dialogs = useDialogs();
  const ask = async (s: Parameters<typeof remove>[0]) => {
    if (await dialogs.confirm('Its alerts stop at once. This cannot be undone.', { title: `Delete “${s.name}”?`, okText: 'Delete' })) await remove(s);
  };

  return (
    <SectionCard id="saved-searches-title" title="Saved searches">
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Alerts when items matching a saved dashboard view appear or change, by e-mail, Microsoft Teams, Slack or webhook. Save a search with
        <strong> Save search</strong> on the dashboard; open one to change its filters.
      </Typography>
      <ListState
        isLoading={isLoading}
        failed={Boolean(error)}
        isEmpty={!data?.length}
        loadingLabel="Loading saved searches"
        errorText="Failed to load your saved searches."
        emptyText="No saved searches yet"
      >
        <List disablePadding aria-label="Your saved searches">
          {(data ?? []).map((s) => (
            <ListItem key={s.id} divider sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <span>{s.name}</span>
                    {s.scope === 'organisation' ? <Chip size="small" label="Organisation" /> : null}
                    {s.paused ? <Chip size="small" color="warning" label="Paused" /> : null}
                  </Stack>
                }
                secondary={`${describeAlertOn(s.alertOn)} · ${describeSchedule(s)} · ${s.channelIds.length ? `To ${s.channelIds.map(channelName).join(', ')}` : 'No channel yet: it sends nothing'}`}
                sx={{ minWidth: 240, flex: 1 }}
              />
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                <Button size="small" component="a" href={`/dashboard?savedSearch=${s.id}`} aria-label={`Open ${s.name} on the dashboard`}>
                  Open
                </Button>
                <Button
                  size="small"
                  onClick={() => {
                    setRenaming(s);
                    setName(s.name);
                    setNameError(null);
                  }}
                  aria-label={`Rename ${s.name}`}
                >
                  Rename
                </Button>
                <Button
                  size="small"
                  onClick={() => void update(s, { paused: !s.paused }, s.paused ? 'Saved search resumed' : 'Saved search paused')}
                  aria-label={`${s.paused ? 'Resume' : 'Pause'} ${s.name}`}
                >
                  {s.paused ? 'Resume' : 'Pause'}
                </Button>
                <Button size="small" color="error" onClick={() => void ask(s)} aria-label={`Delete ${s.name}`}>
                  Delete
                </Button>
              </Box>
            </ListItem>
          ))}
        </List>
      </ListState>
      <Dialog open={Boolean(renaming)} onClose={() => setRenaming(null)} aria-labelledby="rename-search-title">
        <Box component="form" onSubmit={(e) => void rename(e)} noValidate>
          <DialogTitle id="rename-search-title">Rename saved search</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              label="Search name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(nameError)}
              helperText={nameError ?? ' '}
              fullWidth
              sx={{ mt: 1 }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setRenaming(null)}>Cancel</Button>
            <Button type="submit" variant="contained">
              Save
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </SectionCard>
  );
}
