import { useEffect, useState } from 'react';
import { Box, Button, Chip, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { registerPasskeyRequest, routes, type Passkey } from '@radar/contracts';
import {
  callEndpoint,
  confirmationDeclined,
  createPasskey,
  formatChangeDate,
  passkeySupport,
  serverMessageOf,
  useDialogs,
  useEndpoint,
  usePasskeyConfirmation,
  useToast,
} from '@radar/shared-ui';
import { ListState } from '../../components/ListState/index.js';
import { SectionCard } from '../../components/SectionCard/index.js';

/** A name for a new passkey from the browser and system it is made on, changeable before it is added. */
function suggestedName(): string {
  const agent = navigator.userAgent;
  const os = /iPhone|iPad/.test(agent)
    ? 'iPhone'
    : /Android/.test(agent)
      ? 'Android'
      : /Mac/.test(agent)
        ? 'Mac'
        : /Windows/.test(agent)
          ? 'Windows'
          : 'This device';
  return `Passkey on ${os}`;
}

/**
 * The account's passkeys on /profile: each with its name, when it was added and last used, and whether it is synced
 * between devices; Add a passkey (the browser's prompt makes one on this device or a security key), Rename, Remove.
 * A passkey signs in instead of an e-mailed code. When the server wants a recent passkey check first (an admin adding
 * or removing one), the user confirms with a passkey and the change is made.
 */
export function PasskeysCard() {
  const { data, isLoading, error, mutate } = useEndpoint(routes.passkeys.list, {});
  const { toast } = useToast();
  const dialogs = useDialogs();
  const confirmingFirst = usePasskeyConfirmation();
  const [available, setAvailable] = useState<boolean | null>(null);
  const [name, setName] = useState(() => (typeof navigator === 'undefined' ? 'Passkey' : suggestedName()));
  const [editing, setEditing] = useState<{ id: number; name: string; problem: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    passkeySupport()
      .then((s) => live && setAvailable(s.available))
      .catch(() => live && setAvailable(false));
    return () => {
      live = false;
    };
  }, []);

  const add = async () => {
    const parsed = registerPasskeyRequest.shape.name.safeParse(name);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'name is required');
    setProblem(null);
    setBusy(true);
    try {
      const added = await confirmingFirst(() => createPasskey(parsed.data));
      toast({ title: 'Passkey added', description: `${added.name} now signs you in.` });
      await mutate();
    } catch (err) {
      if (!confirmationDeclined(err)) toast({ title: 'Passkey not added', description: serverMessageOf(err) || 'Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const saveName = async () => {
    if (!editing) return;
    const parsed = registerPasskeyRequest.shape.name.safeParse(editing.name);
    if (!parsed.success) return setEditing({ ...editing, problem: parsed.error.issues[0]?.message ?? 'name is required' });
    try {
      await callEndpoint(routes.passkeys.rename, { params: { id: editing.id }, body: { name: parsed.data } });
      setEditing(null);
      await mutate();
    } catch (err) {
      setEditing({ ...editing, problem: serverMessageOf(err) || 'Please try again.' });
    }
  };

  const remove = async (passkey: Passkey) => {
    const confirmed = await dialogs.confirm(`“${passkey.name}” will no longer sign you in. Remove it from the device too, in its settings.`, {
      title: 'Remove this passkey?',
      okText: 'Remove',
    });
    if (!confirmed) return;
    try {
      await confirmingFirst(() => callEndpoint(routes.passkeys.remove, { params: { id: passkey.id } }));
      toast({ title: 'Passkey removed', description: passkey.name });
      await mutate();
    } catch (err) {
      if (confirmationDeclined(err)) return;
      toast({ title: 'Passkey not removed', description: serverMessageOf(err) || 'Please try again.', variant: 'destructive' });
    }
  };

  return (
    <SectionCard id="passkeys-title" title="Passkeys">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Sign in with your fingerprint, face, screen lock or a security key instead of an e-mailed code. Codes keep working.
      </Typography>
      <ListState
        isLoading={isLoading}
        failed={Boolean(error)}
        isEmpty={!data?.length}
        loadingLabel="Loading your passkeys"
        errorText="Failed to load your passkeys."
        emptyText="No passkeys yet"
      >
        <List disablePadding aria-label="Your passkeys">
          {(data ?? []).map((passkey) => (
            <ListItem
              key={passkey.id}
              divider
              secondaryAction={
                <Stack direction="row" spacing={1}>
                  {editing?.id === passkey.id ? (
                    <>
                      <Button onClick={() => void saveName()} aria-label={`Save the name of ${passkey.name}`}>
                        Save
                      </Button>
                      <Button onClick={() => setEditing(null)}>Cancel</Button>
                    </>
                  ) : (
                    <Button onClick={() => setEditing({ id: passkey.id, name: passkey.name, problem: null })} aria-label={`Rename passkey ${passkey.name}`}>
                      Rename
                    </Button>
                  )}
                  <Button color="error" onClick={() => void remove(passkey)} aria-label={`Remove passkey ${passkey.name}`}>
                    Remove
                  </Button>
                </Stack>
              }
            >
              <ListItemText
                primary={
                  editing?.id === passkey.id ? (
                    <TextField
                      size="small"
                      label="Name"
                      value={editing.name}
                      autoFocus
                      onChange={(event) => setEditing({ ...editing, name: event.target.value, problem: null })}
                      onKeyDown={(event) => {
                        if (event.key === 'Enter') void saveName();
                        if (event.key === 'Escape') setEditing(null);
                      }}
                      error={Boolean(editing.problem)}
                      helperText={editing.problem ?? undefined}
                    />
                  ) : (
                    <>
                      {passkey.name}
                      {passkey.synced ? <Chip size="small" label="Synced" sx={{ ml: 1 }} /> : null}
                    </>
                  )
                }
                secondary={[
                  `added ${formatChangeDate(passkey.createdAt)}`,
                  passkey.lastUsedAt ? `last used ${formatChangeDate(passkey.lastUsedAt)}` : 'not used yet',
                ].join(' · ')}
                sx={{ pr: 20 }}
              />
            </ListItem>
          ))}
        </List>
      </ListState>
      {available === false ? (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          This browser cannot make passkeys.
        </Typography>
      ) : (
        <Box component="form" sx={{ mt: 2 }} onSubmit={(event) => (event.preventDefault(), void add())}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              size="small"
              label="Name of the new passkey"
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={Boolean(problem)}
              helperText={problem ?? 'So you can tell your passkeys apart'}
            />
            <Button type="submit" variant="contained" disabled={busy || available === null}>
              {busy ? 'Waiting for your device...' : 'Add a passkey'}
            </Button>
          </Stack>
        </Box>
      )}
    </SectionCard>
  );
}
