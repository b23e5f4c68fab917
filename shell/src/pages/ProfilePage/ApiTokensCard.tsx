import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Link, List, ListItem, ListItemText, MenuItem, Stack, TextField, Typography } from '@mui/material';
import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_NAME_MAX,
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  routes,
  type ApiToken,
  type ApiTokenScope,
  type CreatedApiToken,
} from '@radar/contracts';
import { ListState } from '../../components/ListState/index.js';
import { SectionCard } from '../../components/SectionCard/index.js';
import {
  callEndpoint,
  confirmationDeclined,
  copyText,
  formatChangeDate,
  formatDate,
  serverMessageOf,
  useDialogs,
  useEndpoint,
  usePasskeyConfirmation,
  useToast,
} from '@radar/shared-ui';

/** The lifetimes offered (days); the api accepts any number up to a year. */
const LIFETIMES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 180, label: '180 days' },
  { days: 365, label: '1 year' },
];

/** "expires Feb 24, 2027", or "expired" once past. */
function expiryText(token: Pick<ApiToken, 'expiresAt'>, now = new Date()): string {
  return new Date(token.expiresAt).getTime() <= now.getTime() ? `expired ${formatDate(token.expiresAt)}` : `expires ${formatDate(token.expiresAt)}`;
}

/**
 * Personal API tokens on /profile: create one with a name, a lifetime (90 days unless chosen, at most a year) and a
 * scope (read; read and manage my subscriptions); the token is shown once, with Copy, and its owner is mailed. Each
 * token shows its scope, expiry and last use with its network; revoke.
 */
export function ApiTokensCard() {
  const { data, isLoading, error, mutate } = useEndpoint(routes.tokens.list, {});
  const { toast } = useToast();
  const [name, setName] = useState('');
  const [days, setDays] = useState(API_TOKEN_DEFAULT_DAYS);
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [nameError, setNameError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const confirmingFirst = usePasskeyConfirmation();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setNameError('Token name is required');
      return;
    }
    setCreating(true);
    try {
      // An admin confirms a new token with their passkey when their last check is not recent.
      const token = await confirmingFirst(() => callEndpoint(routes.tokens.create, { body: { name, expiresInDays: days, scope } }));
      setCreated(token);
      setName('');
      setNameError(null);
      await mutate();
    } catch (err) {
      if (confirmationDeclined(err)) return;
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
        feeds and the MCP server, and if you allow it manages your own subscriptions; it never has admin or moderator rights, and it expires (you get an e-mail
        a week before). See the <Link href="/api/docs">API reference</Link>.
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
        <TextField select label="Expires after" size="small" value={days} onChange={(e) => setDays(Number(e.target.value))} sx={{ minWidth: 140 }}>
          {LIFETIMES.map((l) => (
            <MenuItem key={l.days} value={l.days}>
              {l.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="May" size="small" value={scope} onChange={(e) => setScope(e.target.value as ApiTokenScope)} sx={{ minWidth: 220 }}>
          {API_TOKEN_SCOPES.map((s) => (
            <MenuItem key={s} value={s}>
              {API_TOKEN_SCOPE_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
        <Button type="submit" variant="contained" disabled={creating}>
          {creating ? 'Creating...' : 'Create token'}
        </Button>
      </Box>
      {created ? (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setCreated(null)} slotProps={{ closeButton: { 'aria-label': 'Done: hide the token' } }}>
          <Typography sx={{ fontWeight: 600, mb: 1 }}>Copy your new token “{created.name}” now: it will not be shown again.</Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {`${API_TOKEN_SCOPE_LABELS[created.scope]} · ${expiryText(created)}`}
          </Typography>
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
                secondary={[
                  token.prefix,
                  API_TOKEN_SCOPE_LABELS[token.scope],
                  `created ${formatDate(token.createdAt)}`,
                  expiryText(token),
                  token.lastUsedAt
                    ? `last used ${formatChangeDate(token.lastUsedAt)}${token.lastUsedNetwork ? ` from ${token.lastUsedNetwork}` : ''}`
                    : 'never used',
                ].join(' · ')}
                sx={{ pr: 10 }}
              />
            </ListItem>
          ))}
        </List>
      </ListState>
    </SectionCard>
  );
}
