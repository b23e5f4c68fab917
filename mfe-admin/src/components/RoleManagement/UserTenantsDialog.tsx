import { useState } from 'react';
import { Checkbox, FormControlLabel, FormGroup, Typography } from '@mui/material';
import type { TenantRecord } from '@radar/contracts';
import { FormDialog } from '../FormDialog/index.js';

export interface UserTenantsDialogProps {
  /** Who the grants are for, as shown ("Ada Admin (admin@example.com)"). */
  userLabel: string;
  /** The private tenants an admin can grant (public ones need no grant). */
  tenants: Pick<TenantRecord, 'id' | 'name'>[];
  granted: number[];
  busy: boolean;
  onSave: (tenantIds: number[]) => void;
  onCancel: () => void;
}

/** Which private tenants a user may see: their posts appear for the user in the list, export, item pages, search and MCP. */
export function UserTenantsDialog({ userLabel, tenants, granted, busy, onSave, onCancel }: UserTenantsDialogProps) {
  const [chosen, setChosen] = useState(() => new Set(granted));
  const toggle = (id: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <FormDialog
      title={`Tenants of ${userLabel}`}
      intro="Everyone sees the public tenants' posts. Tick the private tenants this user may see too."
      maxWidth="xs"
      busy={busy}
      onSave={() => onSave([...chosen].sort((a, b) => a - b))}
      onCancel={onCancel}
    >
      {tenants.length === 0 ? (
        <Typography color="text.secondary">There are no private tenants.</Typography>
      ) : (
        <FormGroup>
          {tenants.map((tenant) => (
            <FormControlLabel key={tenant.id} control={<Checkbox checked={chosen.has(tenant.id)} onChange={() => toggle(tenant.id)} />} label={tenant.name} />
          ))}
        </FormGroup>
      )}
    </FormDialog>
  );
}
