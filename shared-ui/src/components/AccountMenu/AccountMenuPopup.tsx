import { Link as RouterLink } from 'react-router-dom';
import { Box, Chip, Divider, Menu, MenuItem, Typography } from '@mui/material';
import { routes } from '@radar/contracts';
import { useEndpoint } from '../../api/endpoint-client.js';
import { displayNameOf, type Session } from '../../session/useSession.js';

export interface AccountMenuPopupProps {
  anchor: HTMLElement | null;
  session: Session;
  onClose: () => void;
  onSignIn: () => void;
  onSignOut: () => void;
}

/** The account menu's content, guest or signed-in (loaded the first time the avatar button is used). */
export function AccountMenuPopup({ anchor, session, onClose: close, onSignIn, onSignOut }: AccountMenuPopupProps) {
  const { user } = session;
  // The signed-in user's open triage items and how many of them are overdue (read when the menu opens).
  const counts = useEndpoint(routes.triage.counts, user ? {} : null);
  const queueLabel = counts.data ? `My queue: ${counts.data.open} open${counts.data.overdue ? ` · ${counts.data.overdue} overdue` : ''}` : 'My queue';
  const items = user
    ? [
        <Box key="who" sx={{ px: 2, py: 1, maxWidth: 280 }}>
          <Typography variant="subtitle2" noWrap>
            {displayNameOf(user)}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {user.email}
          </Typography>
          {session.isAdmin ? <Chip label="Administrator" size="small" color="primary" sx={{ mt: 1 }} /> : null}
        </Box>,
        <Divider key="d1" />,
        <MenuItem key="queue" component={RouterLink} to="/dashboard?triage=mine" onClick={close}>
          {queueLabel}
        </MenuItem>,
        <MenuItem key="profile" component={RouterLink} to="/profile" onClick={close}>
          Profile
        </MenuItem>,
        <MenuItem key="notifications" component={RouterLink} to="/notifications" onClick={close}>
          Notifications
        </MenuItem>,
        session.isAdmin ? (
          // A plain link: /admin is a full page load.
          <MenuItem key="admin" component="a" href="/admin" onClick={close}>
            Admin Panel
          </MenuItem>
        ) : null,
        <Divider key="d2" />,
        <MenuItem
          key="signout"
          onClick={() => {
            close();
            onSignOut();
          }}
        >
          Sign out
        </MenuItem>,
      ]
    : [
        <Box key="guest" sx={{ px: 2, py: 1 }}>
          <Typography variant="subtitle2">Guest User</Typography>
          <Typography variant="body2" color="text.secondary">
            Sign in for notifications and more
          </Typography>
        </Box>,
        <Divider key="d1" />,
        <MenuItem
          key="signin"
          onClick={() => {
            close();
            onSignIn();
          }}
        >
          Sign In
        </MenuItem>,
      ];

  return (
    <Menu
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={close}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {items}
    </Menu>
  );
}
