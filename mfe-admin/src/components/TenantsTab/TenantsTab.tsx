import { useState } from 'react';
import { Box, Button, Checkbox, FormControlLabel, Stack, Typography } from '@mui/material';
import {
  healthStatusLabel,
  routes,
  TENANT_CLOUD_LABELS,
  USAGE_PERMISSION,
  type ConnectionTestResult,
  type CreateTenantRequest,
  type TenantRecord,
  type UpdateTenantRequest,
} from '@radar/contracts';
import { callEndpoint, formatChangeDate, serverMessageOf, urlOf, useDialogs, useEndpoint, type DialogProps } from '@radar/shared-ui';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { fieldErrorsOf } from '../../api/field-errors.js';
import { AdminData } from '../AdminData/index.js';
import { AdminTable } from '../AdminTable/index.js';
import { FormDialog, useDialogSave, type SaveProblems } from '../FormDialog/index.js';
import { UsageDialog } from '../TenantUsage/index.js';
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
      <UsageRead tenant={tenant} />
    </Stack>
  );
}

/**
 * Whether the tenant's usage reports are read (relevance is worked out from them): read, when; off for want of
 * Reports.Read.All; failing, and why; not read yet. The counts themselves are in the Usage dialog.
 */
function UsageRead({ tenant }: { tenant: TenantRecord }) {
  const usage = tenant.usage;
  if (!usage) return null;
  switch (usage.state) {
    case 'read':
      return <Typography variant="body2">{`Usage: read ${usage.readAt ? formatChangeDate(usage.readAt) : ''}`.trim()}</Typography>;
    case 'never':
      return (
        <Typography variant="body2" color="text.secondary">
          Usage: not read yet
        </Typography>
      );
    case 'permission_missing':
      return (
        <Typography variant="body2" color="warning.main">
          {`Usage: off, the app lacks ${USAGE_PERMISSION} (relevance says Unknown)`}
        </Typography>
      );
    case 'failing':
      return (
        <Box>
          <Typography variant="body2">{`Usage: the last read failed${usage.readAt ? `; counts of ${formatChangeDate(usage.readAt)} in use` : ''}`}</Typography>
          {usage.error ? (
            <Typography variant="body2" color="error">
              {usage.error}
            </Typography>
          ) : null}
        </Box>
      );
  }
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
  payload: { tenant, remove },
  open,
  onClose,
}: DialogProps<{ tenant: TenantRecord; remove: (deletePosts: boolean) => Promise<SaveProblems | null> }>) {
  const [deletePosts, setDeletePosts] = useState(false);
  const { busy, submit } = useDialogSave(remove, () => onClose());
  return (
    <FormDialog
      title={`Remove ${tenant.name}?`}
      intro={`Its client id and secret are deleted and it is no longer synced. Its ${tenant.counts.posts} posts stay in the archive, attributed to it, unless you delete them too.`}
      open={open}
      busy={busy}
      saveText="Remove"
      savingText="Removing..."
      saveColor="error"
      onSave={() => void submit(deletePosts)}
      onCancel={() => onClose()}
    >
      <FormControlLabel
        control={<Checkbox checked={deletePosts} onChange={(event) => setDeletePosts(event.target.checked)} />}
        label="Also delete the posts no other tenant received"
      />
    </FormDialog>
  );
}

/**
 * Tenants: the Microsoft 365 tenants whose Message Center is read. Each row shows its cloud, who sees its posts,
 * whether its secret is set (and when it expires), its last sync and error, whether its usage is read, and its post counts, with Test connection,
 * Sync now, Usage (its usage reports' counts, in a dialog), Change and Remove.
 */
export function TenantsTab() {
  const tenants = useEndpoint(routes.tenants.list, {});
  const run = useAdminAction();
  const dialogs = useDialogs();
  const [busy, setBusy] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<number, ConnectionTestResult>>({});

  /** Adds a tenant, or changes `current`; null when saved, else the problems the dialog shows. */
  const save = async (current: TenantRecord | null, body: CreateTenantRequest | UpdateTenantRequest): Promise<SaveProblems | null> => {
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
    if (outcome.ok) return null;
    const fields = fieldErrorsOf(outcome.error);
    return { fields, message: Object.keys(fields).length ? null : (serverMessageOf(outcome.error) ?? errorMessageOf(outcome.error)) };
  };
  const edit = (tenant: TenantRecord | null) =>
    void dialogs.open(TenantDialog, { tenant: tenant ?? undefined, save: (body: CreateTenantRequest | UpdateTenantRequest) => save(tenant, body) });
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
  /** Removes a tenant, with its posts when asked; null when removed (a failure is said by a toast, the dialog stays). */
  const remove = async (tenant: TenantRecord, deletePosts: boolean): Promise<SaveProblems | null> => {
    const outcome = await run(
      () => callEndpoint(routes.tenants.remove, { params: { id: tenant.id }, query: { deletePosts: deletePosts ? 'true' : 'false' } }),
      {
        success: (answer) => ({ title: 'Tenant removed', description: answer.message }),
        failure: (err) => `Could not remove ${tenant.name}: ${errorMessageOf(err)}`,
        revalidate: [LIST_KEY],
      },
    );
    return outcome.ok ? null : { fields: {}, message: null };
  };

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
        <Typography color="text.secondary">
          The Microsoft 365 tenants whose Message Center is read, each through its own Entra app. A post several tenants received is one item with its tenants.
        </Typography>
        <Button variant="contained" onClick={() => edit(null)}>
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
                {/* Its counts and trend in a dialog: the row says only whether the usage is read. */}
                <Button size="small" variant="outlined" aria-label={`Usage of ${tenant.name}`} onClick={() => void dialogs.open(UsageDialog, tenant)}>
                  Usage
                </Button>
                <Button size="small" variant="outlined" aria-label={`Change ${tenant.name}`} onClick={() => edit(tenant)}>
                  Change
                </Button>
                <Button
                  size="small"
                  variant="outlined"
                  color="error"
                  aria-label={`Remove ${tenant.name}`}
                  onClick={() => void dialogs.open(RemoveTenantDialog, { tenant, remove: (deletePosts: boolean) => remove(tenant, deletePosts) })}
                >
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
    </Stack>
  );
}
