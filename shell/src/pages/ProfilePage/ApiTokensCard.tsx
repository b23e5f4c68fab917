import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Link, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { API_TOKEN_NAME_MAX, routes, type ApiToken, type CreatedApiToken } from '@radar/contracts';
import { ListState } from '../../components/ListState/index.js';
import { SectionCard } from '../../components/SectionCard/index.js';
import { callEndpoint, copyText, formatChangeDate, formatDate, serverMessageOf, useDialogs, useEndpoint, useToast } from '@radar/shared-ui';

/**
 * Personal API tokens on /profile: create one with a name (the token is shown once, with Copy), see each token's
 * last use, revoke. Tokens read items, feeds and the MCP server and manage the owner's own subscriptions.
 */
export function ApiTokensCard() {
  const { data, isLoading, error, mutate } = useEndpoint(routes.tokens.list, {});
  const { toast } = useToast();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setNameError('Token name is required');
      return;
    }
    setCreating(true);
    try {
      const token = await callEndpoint(routes.tokens.create, { body: { name } });
      setCreated(token);
      setName('');
      setNameError(null);
      await mutate();
    } catch (err) {
      toast({ title: 'Token not created', description: serverMessageOf(err) || 'Failed to create the token. Please try again.', variant: 'destructive' });
    } finally {
      setCreating(false);
    }
  };

  const copy = async (token: string) => {
    try {
      await copyText(token);
      toast({ title: 'Token copied', description: 'Paste it where it is used; it will not be shown again.' });
    } catch {
      toast({ title: 'Copy failed', description: 'Select the token and copy it yourself.', variant: 'destructive' });
    }
  };

  const revoke = async (token: ApiToken) => {
    try {
      await callEndpoint(routes.tokens.revoke, { params: { id: token.id } });
      toast({ title: 'Token revoked', description: `Apps using “${token.name}” can no longer connect.` });
      if (created?.id === token.id) setCreated(null);
      await mutate();
    } catch (err) {
      toast({ title: 'Revoke failed', description: serverMessageOf(err) || 'Failed to revoke the token. Please try again.', variant: 'destructive' });
    }
  };

  const dialogs = useDialogs();
  const ask = async (token: Parameters<typeof revoke>[0]) => {
    if (
      await dialogs.confirm('Apps and agents using this token stop working at once. This cannot be undone.', {
        title: `Revoke “${token.name}”?`,
        okText: 'Revoke',
      })
    )
      await revoke(token);
  };

  return (
    <SectionCard id="api-tokens-title" title="API tokens">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Let scripts, feed readers and AI agents read M365 Radar as you: send the token as <code>Authorization: Bearer &lt;token&gt;</code>. A token reads items,
        feeds and the MCP server and manages your own subscriptions; it never has admin or moderator rights. See the <Link href="/api/docs">API reference</Link>
        .
      </Typography>
      <Box component="form" onSubmit={(e) => void create(e)} noValidate sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', mb: 2 }}>
        <TextField
          label="Token name"
          size="small"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(nameError)}
          helperText={nameError ?? 'Where you use it, e.g. “Claude Desktop”'}
          slotProps={{ htmlInput: { maxLength: API_TOKEN_NAME_MAX } }}
          sx={{ minWidth: 260, flex: 1 }}
        />
        <Button type="submit" variant="contained" disabled={creating}>
          {creating ? 'Creating...' : 'Create token'}
        </Button>
      </Box>
      {created ? (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setCreated(null)} slotProps={{ closeButton: { 'aria-label': 'Done: hide the token' } }}>
          <Typography sx={{ fontWeight: 600, mb: 1 }}>Copy your new token “{created.name}” now: it will not be shown again.</Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <TextField
              label="New API token"
              size="small"
              value={created.token}
              fullWidth
              slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } } }}
              onFocus={(e) => e.target.select()}
            />
            <Button variant="outlined" onClick={() => void copy(created.token)}>
              Copy
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <ListState
        isLoading={isLoading}
        failed={Boolean(error)}
        isEmpty={!data?.length}
        loadingLabel="Loading API tokens"
        errorText="Failed to load your API tokens."
        emptyText="No API tokens yet"
      >
        <List disablePadding aria-label="Your API tokens">
          {(data ?? []).map((token) => (
            <ListItem
              key={token.id}
              divider
              secondaryAction={
                <Button color="error" onClick={() => void ask(token)} aria-label={`Revoke token ${token.name}`}>
                  Revoke
                </Button>
              }
            >
              <ListItemText
                primary={token.name}
                secondary={`${token.prefix} · created ${formatDate(token.createdAt)} · ${token.lastUsedAt ? `last used ${formatChangeDate(token.lastUsedAt)}` : 'never used'}`}
                sx={{ pr: 10 }}
              />
            </ListItem>
          ))}
        </List>
      </ListState>
    </SectionCard>
  );
}
