import { useId, useState } from 'react';
import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, FormGroup } from '@mui/material';
import type { TenantRecord } from '@radar/contracts';

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
  const titleId = useId();
  const [chosen, setChosen] = useState(() => new Set(granted));
  const toggle = (id: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Dialog open onClose={busy ? undefined : onCancel} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Tenants of {userLabel}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>Everyone sees the public tenants&apos; posts. Tick the private tenants this user may see too.</DialogContentText>
        {tenants.length === 0 ? (
          <DialogContentText>There are no private tenants.</DialogContentText>
        ) : (
          <FormGroup>
            {tenants.map((tenant) => (
              <FormControlLabel key={tenant.id} control={<Checkbox checked={chosen.has(tenant.id)} onChange={() => toggle(tenant.id)} />} label={tenant.name} />
            ))}
          </FormGroup>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" disabled={busy} onClick={() => onSave([...chosen].sort((a, b) => a - b))}>
          {busy ? 'Saving...' : 'Save'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
