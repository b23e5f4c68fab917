import { useState } from 'react';
import { Button, FormControl, InputLabel, MenuItem, Paper, Select, Stack, Typography } from '@mui/material';
import type { AppUser, Role } from '@radar/contracts';
import { userLabel } from './role-actions.js';

export interface AssignRoleFormProps {
  users: AppUser[];
  roles: Role[];
  /** Resolves true when assigned (the selection is then cleared). */
  onAssign: (userId: number, roleId: number) => Promise<boolean>;
}

/** Assign a role: both a user and a role must be selected before the button is enabled. */
export function AssignRoleForm({ users, roles, onAssign }: AssignRoleFormProps) {
  const [userId, setUserId] = useState('');
  const [roleId, setRoleId] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = userId !== '' && roleId !== '' && !busy;

  const assign = async () => {
    if (userId === '' || roleId === '') return;
    setBusy(true);
    const ok = await onAssign(Number(userId), Number(roleId));
    setBusy(false);
    if (ok) {
      setUserId('');
      setRoleId('');
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 2 }}>
        Assign Role
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <FormControl sx={{ minWidth: 260 }} size="small">
          <InputLabel id="assign-user-label">User</InputLabel>
          <Select labelId="assign-user-label" label="User" value={userId} onChange={(event) => setUserId(event.target.value)}>
            {users.map((user) => (
              <MenuItem key={user.id} value={String(user.id)}>
                {userLabel(user)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl sx={{ minWidth: 200 }} size="small">
          <InputLabel id="assign-role-label">Role</InputLabel>
          <Select labelId="assign-role-label" label="Role" value={roleId} onChange={(event) => setRoleId(event.target.value)}>
            {roles.map((role) => (
              <MenuItem key={role.id} value={String(role.id)}>
                {role.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Button variant="contained" disabled={!ready} onClick={() => void assign()}>
          {busy ? 'Assigning...' : 'Assign Role'}
        </Button>
      </Stack>
    </Paper>
  );
}
