import { Chip, IconButton, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { DeleteIconButton } from '../DeleteIconButton/index.js';
import { CloseIcon } from '../icons/index.js';
import type { AppUser, UserRoleAssignment } from '@radar/contracts';

export interface UsersTableProps {
  users: AppUser[];
  assignments: UserRoleAssignment[];
  onRemoveRole: (user: AppUser, assignment: UserRoleAssignment) => void;
  onDeleteUser: (user: AppUser) => void;
}

/** The users with their roles (each removable) and a delete button. */
export function UsersTable({ users, assignments, onRemoveRole, onDeleteUser }: UsersTableProps) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        Users
      </Typography>
      <TableContainer>
        <Table size="small" aria-label="Users">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Email</TableCell>
              <TableCell>Verified</TableCell>
              <TableCell>Weekly digest</TableCell>
              <TableCell>Roles</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.map((user) => {
              const mine = assignments.filter((a) => a.userId === user.id);
              return (
                <TableRow key={user.id}>
                  <TableCell>{[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}</TableCell>
                  <TableCell>{user.email}</TableCell>
                  <TableCell>{user.isEmailVerified ? 'Yes' : 'No'}</TableCell>
                  <TableCell>{user.hasWeeklyDigestSubscription ? 'Subscribed' : 'No'}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                      {mine.length === 0 ? <Typography variant="body2">No roles</Typography> : null}
                      {mine.map((assignment) => (
                        <Chip
                          key={assignment.id}
                          size="small"
                          label={
                            <Stack direction="row" component="span" sx={{ alignItems: 'center' }}>
                              {assignment.role.name}
                              <IconButton
                                size="small"
                                aria-label={`Remove role ${assignment.role.name} from ${user.email}`}
                                onClick={() => onRemoveRole(user, assignment)}
                                sx={{ ml: 0.25, mr: -0.75, p: 0.25 }}
                              >
                                <CloseIcon sx={{ fontSize: 14 }} />
                              </IconButton>
                            </Stack>
                          }
                        />
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell align="right">
                    <DeleteIconButton label={`Delete user ${user.email}`} tooltip="Delete user" onClick={() => onDeleteUser(user)} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
