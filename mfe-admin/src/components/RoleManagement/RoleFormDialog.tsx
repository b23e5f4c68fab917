import { useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import type { Role, RoleInput } from '@radar/contracts';

export interface RoleFormDialogProps {
  open: boolean;
  /** The role being edited; null creates a new one. */
  role: Role | null;
  onClose: () => void;
  /** Resolves true when saved (the dialog then closes). */
  onSubmit: (input: RoleInput) => Promise<boolean>;
}

/** 'read, write\nexport' -> ['read', 'write', 'export']: one permission per comma or line, blanks and repeats dropped. */
export function parsePermissions(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
}

/** Create or edit a role. Name is required ('Role name is required'); description and permissions are optional. */
export function RoleFormDialog({ open, role, onClose, onSubmit }: RoleFormDialogProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // Opening (or switching the role while open) starts from the role's values: adjusted during render, the way
  // React recommends for state that follows a prop, so the old values never flash.
  const [shown, setShown] = useState<{ open: boolean; role: Role | null }>({ open: false, role: null });
  if (shown.open !== open || shown.role !== role) {
    setShown({ open, role });
    if (open) {
      setName(role?.name ?? '');
      setDescription(role?.description ?? '');
      setPermissions((role?.permissions ?? []).join(', '));
      setNameError(null);
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Role name is required');
      return;
    }
    setSaving(true);
    const saved = await onSubmit({ name: name.trim(), description: description.trim() || null, permissions: parsePermissions(permissions) });
    setSaving(false);
    if (saved) onClose();
  };

  const title = role ? 'Edit Role' : 'Create Role';
  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="role-form-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="role-form-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Role name"
              value={name}
              required
              autoFocus
              onChange={(event) => {
                setName(event.target.value);
                if (nameError) setNameError(null);
              }}
              error={nameError !== null}
              helperText={nameError ?? ' '}
            />
            <TextField label="Description" value={description} onChange={(event) => setDescription(event.target.value)} multiline minRows={2} />
            <TextField
              label="Permissions"
              value={permissions}
              onChange={(event) => setPermissions(event.target.value)}
              helperText="Optional: one per line or separated by commas"
              multiline
              minRows={2}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {role ? 'Save Role' : 'Create Role'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
