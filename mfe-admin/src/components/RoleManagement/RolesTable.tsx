import { ChipList } from '@radar/shared-ui';
import { Button, Chip, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { AdminTable } from '../AdminTable/index.js';
import { DeleteIconButton } from '../DeleteIconButton/index.js';
import { EditOutlinedIcon } from '../icons/index.js';
import type { Role } from '@radar/contracts';

export interface RolesTableProps {
  roles: Role[];
  onCreate: () => void;
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
}

/** The roles with their permissions (2 chips plus '+N'), and create / edit / delete (custom roles only). */
export function RolesTable({ roles, onCreate, onEdit, onDelete }: RolesTableProps) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h3">
          Roles
        </Typography>
        <Button variant="contained" onClick={onCreate}>
          Create Role
        </Button>
      </Stack>
      <AdminTable
        label="Roles"
        framed={false}
        rows={roles}
        rowKey={(role) => role.id}
        title={(role) => role.name}
        columns={[
          {
            key: 'name',
            label: 'Name',
            render: (role) => (
              <>
                {role.name} {role.isBuiltIn ? <Chip size="small" variant="outlined" label="Built-in" sx={{ ml: 1 }} /> : null}
              </>
            ),
          },
          { key: 'description', label: 'Description', render: (role) => role.description || '—' },
          { key: 'permissions', label: 'Permissions', render: (role) => <ChipList values={role.permissions} noun="permissions" emptyText="None" /> },
        ]}
        actions={(role) => (
          <>
            <Tooltip title="Edit role">
              <IconButton aria-label={`Edit role ${role.name}`} onClick={() => onEdit(role)} size="small">
                <EditOutlinedIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            {/* Built-in roles (Admin, Moderator, User) cannot be deleted; the server refuses it as well. */}
            {role.isBuiltIn ? null : <DeleteIconButton label={`Delete role ${role.name}`} tooltip="Delete role" onClick={() => onDelete(role)} />}
          </>
        )}
      />
    </Paper>
  );
}
