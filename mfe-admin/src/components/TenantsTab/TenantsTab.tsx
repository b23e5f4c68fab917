import { useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Stack,
  Typography,
} from '@mui/material';
import {
  healthStatusLabel,
  routes,
  TENANT_CLOUD_LABELS,
  type ConnectionTestResult,
  type CreateTenantRequest,
  type TenantRecord,
  type UpdateTenantRequest,
} from '@radar/contracts';
import { callEndpoint, formatChangeDate, serverMessageOf, urlOf, useEndpoint } from '@radar/shared-ui';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { fieldErrorsOf } from '../../api/field-errors.js';
import { AdminData } from '../AdminData/index.js';
import { AdminTable } from '../AdminTable/index.js';
import { TestResultView } from '../TestResultView/index.js';
import { TenantDialog } from './TenantDialog.js';

const LIST_KEY = urlOf(routes.tenants.list, {});

const FEED_LABELS = { messages: 'Message Center', health: 'Service Health' } as const;

/** The last sync of each feed of the tenant, with the error of a feed whose last run failed. */
function LastSyncs({ tenant }: { tenant: TenantRecord }) {
  return (
    <Stack spacing={0.5}>
      {(Object.keys(FEED_LABELS) as (keyof typeof FEED_LABELS)[]).map((key) => {
        const feed = tenant.feeds[key];
        return (
          <Box key={key}>
            <Typography variant="body2">
              {FEED_LABELS[key]}: {feed.lastSyncAt ? `${formatChangeDate(feed.lastSyncAt)} (${feed.status ?? 'unknown'})` : 'Not synced yet'}
            </Typography>
            {feed.error ? (
              <Typography variant="body2" color="error">
                {feed.error}
              </Typography>
            ) : null}
          </Box>
        );
      })}
      <ServicesNow tenant={tenant} />
      <Licences tenant={tenant} />
    </Stack>
  );
}

/** The tenant's services now (Graph healthOverviews): all operational, or which are not and how. */
function ServicesNow({ tenant }: { tenant: TenantRecord }) {
  const now = tenant.serviceHealth;
  if (!now) return null;
  if (now.notOperational.length === 0) {
    return <Typography variant="body2">{`Services: all ${now.services} operational`}</Typography>;
  }
  return (
    <Typography variant="body2" color="warning.main">
      {`Services: ${now.notOperational.map((s) => `${s.service} (${healthStatusLabel(s.status).toLowerCase()})`).join(', ')}`}
    </Typography>
  );
}

/** The products the tenant licenses (read with its Service Health runs), or why they could not be read. */
function Licences({ tenant }: { tenant: TenantRecord }) {
  if (tenant.licencesError) {
    return (
      <Typography variant="body2" color="text.secondary">
        {tenant.licencesError}
      </Typography>
    );
  }
  if (!tenant.licences) return null;
  return (
    <Typography variant="body2" title={tenant.licences.products.join(', ')}>
      {`Licences: ${tenant.licences.products.length} products`}
    </Typography>
  );
}

/** Remove a tenant: its credentials are forgotten; its posts stay in the archive unless the admin deletes them too. */
function RemoveTenantDialog({
  tenant,
  busy,
  onRemove,
  onCancel,
}: {
  tenant: TenantRecord;
  busy: boolean;
  onRemove: (deletePosts: boolean) => void;
  onCancel: () => void;
}) {
  const [deletePosts, setDeletePosts] = useState(false);
  return (
    <Dialog open onClose={busy ? undefined : onCancel} aria-labelledby="remove-tenant-title">
      <DialogTitle id="remove-tenant-title">Remove {tenant.name}?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          Its client id and secret are deleted and it is no longer synced. Its {tenant.counts.posts} posts stay in the archive, attributed to it, unless you
          delete them too.
        </DialogContentText>
        <FormControlLabel
          control={<Checkbox checked={deletePosts} onChange={(event) => setDeletePosts(event.target.checked)} />}
          label="Also delete the posts no other tenant received"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button color="error" variant="contained" disabled={busy} onClick={() => onRemove(deletePosts)}>
          {busy ? 'Removing...' : 'Remove'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Tenants: the Microsoft 365 tenants whose Message Center is read. Each row shows its cloud, who sees its posts,
 * whether its secret is set (and when it expires), its last sync and error and its post counts, with Test connection,
 * Sync now, Change and Remove.
 */
export function TenantsTab() {
  const tenants = useEndpoint(routes.tenants.list, {});
  const run = useAdminAction();
  const [editing, setEditing] = useState<TenantRecord | 'new' | null>(null);
  const [removing, setRemoving] = useState<TenantRecord | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<{ fields: Record<string, string>; message: string | null }>({ fields: {}, message: null });
  const [busy, setBusy] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<number, ConnectionTestResult>>({});

  const save = async (body: CreateTenantRequest | UpdateTenantRequest) => {
    setSaving(true);
    setSaveError({ fields: {}, message: null });
    const current = editing === 'new' ? null : editing;
    const outcome = await run(
      () =>
        current
          ? callEndpoint(routes.tenants.update, { params: { id: current.id }, body: body as UpdateTenantRequest })
          : callEndpoint(routes.tenants.create, { body: body as CreateTenantRequest }),
      {
        success: (saved) => ({ title: current ? 'Tenant changed' : 'Tenant added', description: `${saved.name} is saved. Test its connection next.` }),
        failure: (err) => `Could not save the tenant: ${errorMessageOf(err)}`,
        revalidate: [LIST_KEY],
      },
    );
    setSaving(false);
    if (outcome.ok) setEditing(null);
    else {
      const fields = fieldErrorsOf(outcome.error);
      setSaveError({ fields, message: Object.keys(fields).length ? null : (serverMessageOf(outcome.error) ?? errorMessageOf(outcome.error)) });
    }
  };
  const test = async (tenant: TenantRecord) => {
    setBusy(`test:${tenant.id}`);
    const outcome = await run(() => callEndpoint(routes.tenants.test, { params: { id: tenant.id } }), {
      failure: (err) => `Could not test ${tenant.name}: ${errorMessageOf(err)}`,
    });
    if (outcome.ok) setTests((current) => ({ ...current, [tenant.id]: outcome.result }));
    setBusy(null);
  };
  const sync = async (tenant: TenantRecord) => {
    setBusy(`sync:${tenant.id}`);
    await run(() => callEndpoint(routes.tenants.sync, { params: { id: tenant.id } }), {
      success: (answer) => ({ title: 'Sync finished', description: answer.message }),
      failure: (err) => `Could not sync ${tenant.name}: ${errorMessageOf(err)}`,
      revalidate: [LIST_KEY],
    });
    setBusy(null);
  };
  const remove = async (tenant: TenantRecord, deletePosts: boolean) => {
    setBusy(`remove:${tenant.id}`);
    const outcome = await run(
      () => callEndpoint(routes.tenants.remove, { params: { id: tenant.id }, query: { deletePosts: deletePosts ? 'true' : 'false' } }),
      {
        success: (answer) => ({ title: 'Tenant removed', description: answer.message }),
        failure: (err) => `Could not remove ${tenant.name}: ${errorMessageOf(err)}`,
        revalidate: [LIST_KEY],
      },
    );
    setBusy(null);
    if (outcome.ok) setRemoving(null);
  };

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
        <Typography color="text.secondary">
          The Microsoft 365 tenants whose Message Center is read, each through its own Entra app. A post several tenants received is one item with its tenants.
        </Typography>
        <Button
          variant="contained"
          onClick={() => {
            setSaveError({ fields: {}, message: null });
            setEditing('new');
          }}
        >
          Add tenant
        </Button>
      </Stack>
      <AdminData
        answer={tenants}
        what="tenants"
        failedWhat="the tenants"
        empty={{
          when: (data) => data.length === 0,
          text: 'No tenant yet. Add tenant connects one through its Entra app: its Message Center posts, Service Health issues and licences are read from then on, and triage starts with its live posts.',
        }}
      >
        {(data) => (
          <AdminTable
            label="Tenants"
            rows={data}
            rowKey={(tenant) => String(tenant.id)}
            title={(tenant) => tenant.name}
            columns={[
              { key: 'name', label: 'Name', inCardTitle: true, render: (tenant) => tenant.name },
              {
                key: 'directory',
                label: 'Directory',
                maxWidth: 240,
                render: (tenant) => (
                  <Box sx={{ wordBreak: 'break-all' }}>
                    {tenant.tenantId} · {TENANT_CLOUD_LABELS[tenant.cloud]}
                  </Box>
                ),
              },
              {
                key: 'visibility',
                label: 'Visibility',
                render: (tenant) => `${tenant.visibility === 'public' ? 'Public' : 'Private'}${tenant.enabled ? '' : ' · not synced'}`,
              },
              {
                key: 'secret',
                label: 'Secret',
                render: (tenant) => (tenant.secretSet ? `Set${tenant.secretExpiresOn ? `, expires ${tenant.secretExpiresOn}` : ''}` : 'Not set'),
              },
              {
                key: 'sync',
                label: 'Last sync',
                render: (tenant) => <LastSyncs tenant={tenant} />,
              },
              {
                key: 'posts',
                label: 'Posts',
                render: (tenant) =>
                  `${tenant.counts.livePosts} live of ${tenant.counts.posts} · ${tenant.counts.issues} health ${tenant.counts.issues === 1 ? 'issue' : 'issues'}`,
              },
            ]}
            actions={(tenant) => (
              <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1 }}>
                <Button
                  size="small"
                  variant="outlined"
                  aria-label={`Test connection of ${tenant.name}`}
                  disabled={busy === `test:${tenant.id}`}
                  onClick={() => void test(tenant)}
                >
                  {busy === `test:${tenant.id}` ? 'Testing...' : 'Test connection'}
                </Button>
                <Button
                  size="small"
                  variant="outlined"
                  aria-label={`Sync now: ${tenant.name}`}
                  disabled={!tenant.enabled || busy === `sync:${tenant.id}`}
                  onClick={() => void sync(tenant)}
                >
                  {busy === `sync:${tenant.id}` ? 'Syncing...' : 'Sync now'}
                </Button>
                <Button
                  size="small"
                  variant="outlined"
                  aria-label={`Change ${tenant.name}`}
                  onClick={() => {
                    setSaveError({ fields: {}, message: null });
                    setEditing(tenant);
                  }}
                >
                  Change
                </Button>
                <Button size="small" variant="outlined" color="error" aria-label={`Remove ${tenant.name}`} onClick={() => setRemoving(tenant)}>
                  Remove
                </Button>
              </Stack>
            )}
            detail={(tenant) => {
              const result = tests[tenant.id];
              return result ? <TestResultView of={tenant.name} result={result} /> : null;
            }}
          />
        )}
      </AdminData>
      {editing ? (
        <TenantDialog
          tenant={editing === 'new' ? undefined : editing}
          busy={saving}
          serverErrors={saveError.fields}
          serverError={saveError.message}
          onSave={(body) => void save(body)}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {removing ? (
        <RemoveTenantDialog
          tenant={removing}
          busy={busy === `remove:${removing.id}`}
          onRemove={(deletePosts) => void remove(removing, deletePosts)}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </Stack>
  );
}
