import { useState } from 'react';
import { FormControlLabel, MenuItem, Switch, TextField } from '@mui/material';
import type { DialogProps } from '@radar/shared-ui';
import { formErrorsOf } from '../../api/field-errors.js';
import { FormDialog, useDialogSave, type SaveProblems } from '../FormDialog/index.js';
import {
  createTenantRequest,
  TENANT_CLOUD_LABELS,
  TENANT_CLOUDS,
  updateTenantRequest,
  type CreateTenantRequest,
  type TenantRecord,
  type UpdateTenantRequest,
} from '@radar/contracts';

/** What Admin → Tenants opens the dialog with. */
export interface TenantDialogPayload {
  /** The tenant to change; absent: add a new one. */
  tenant?: TenantRecord;
  /** Sends the form: null when saved, else why not (the server's field problems, or a duplicate name or directory). */
  save: (body: CreateTenantRequest | UpdateTenantRequest) => Promise<SaveProblems | null>;
}

interface Draft {
  name: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  secretExpiresOn: string;
  cloud: TenantRecord['cloud'];
  visibility: TenantRecord['visibility'];
  enabled: boolean;
}

/**
 * Add or change a tenant. The rules are the API's own schemas, so a field is refused here with the same words the
 * server would use. A stored secret is never shown: leaving the field empty keeps it.
 */
export function TenantDialog({ payload: { tenant, save: send }, open, onClose }: DialogProps<TenantDialogPayload>) {
  const { busy, problems: refused, submit } = useDialogSave(send, () => onClose());
  const serverErrors = refused.fields;
  const [draft, setDraft] = useState<Draft>({
    name: tenant?.name ?? '',
    tenantId: tenant?.tenantId ?? '',
    clientId: tenant?.clientId ?? '',
    clientSecret: '',
    secretExpiresOn: tenant?.secretExpiresOn ?? '',
    cloud: tenant?.cloud ?? 'worldwide',
    visibility: tenant?.visibility ?? 'private',
    enabled: tenant?.enabled ?? true,
  });
  const [tried, setTried] = useState(false);
  const body = (): CreateTenantRequest | UpdateTenantRequest => {
    const common = {
      name: draft.name,
      tenantId: draft.tenantId,
      clientId: draft.clientId,
      secretExpiresOn: draft.secretExpiresOn || null,
      cloud: draft.cloud,
      visibility: draft.visibility,
      enabled: draft.enabled,
    };
    return tenant ? { ...common, ...(draft.clientSecret ? { clientSecret: draft.clientSecret } : {}) } : { ...common, clientSecret: draft.clientSecret };
  };
  const parsed = (tenant ? updateTenantRequest : createTenantRequest).safeParse(body());
  const problems = formErrorsOf(parsed);
  const problemOf = (field: keyof Draft) => (tried ? problems[field] : undefined) ?? serverErrors[field];
  const save = () => {
    setTried(true);
    if (parsed.success) void submit(body());
  };
  const field = (key: keyof Draft, label: string, helper: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      fullWidth
      label={label}
      value={draft[key] as string}
      onChange={(event) => setDraft((d) => ({ ...d, [key]: event.target.value }))}
      error={Boolean(problemOf(key))}
      helperText={problemOf(key) ?? helper}
      {...extra}
    />
  );
  return (
    <FormDialog
      title={tenant ? `Change ${tenant.name}` : 'Add a tenant'}
      intro="An Entra app registered in the tenant, with the application permissions ServiceMessage.Read.All and ServiceHealth.Read.All and admin consent."
      open={open}
      busy={busy}
      error={refused.message}
      onSave={save}
      onCancel={() => onClose()}
    >
      {field('name', 'Name', 'How the tenant is shown in the list and Sync History', { autoFocus: true })}
      {field('tenantId', 'Directory (tenant) ID', 'A GUID, or a verified domain such as contoso.onmicrosoft.com')}
      {field('clientId', 'Application (client) ID', 'The app registration’s client id (a GUID)')}
      {field(
        'clientSecret',
        'Client secret',
        tenant ? (tenant.secretSet ? 'Set. Leave empty to keep it.' : 'Not set.') : 'The secret’s Value; it is stored sealed and never shown again',
        {
          type: 'password',
          autoComplete: 'new-password',
        },
      )}
      {field('secretExpiresOn', 'Secret expires on', 'Optional: shown in the list, so a renewal is not missed', {
        type: 'date',
        slotProps: { inputLabel: { shrink: true } },
      })}
      {field('cloud', 'Cloud', 'Decides the sign-in and Graph hosts', {
        select: true,
        children: TENANT_CLOUDS.map((c) => (
          <MenuItem key={c} value={c}>
            {TENANT_CLOUD_LABELS[c]}
          </MenuItem>
        )),
      })}
      {field('visibility', 'Who sees its posts', 'Private: admins and the users given access. Public: everyone who may browse.', {
        select: true,
        children: [
          <MenuItem key="private" value="private">
            Private
          </MenuItem>,
          <MenuItem key="public" value="public">
            Public
          </MenuItem>,
        ],
      })}
      <FormControlLabel
        control={<Switch checked={draft.enabled} onChange={(event) => setDraft((d) => ({ ...d, enabled: event.target.checked }))} />}
        label="Synced (hourly, and with Sync now)"
      />
    </FormDialog>
  );
}
