import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Chip, Divider, IconButton, Menu, MenuItem, Skeleton, Typography } from '@mui/material';
import { displayNameOf, useSession } from '../../session/useSession.js';
import { useSignOut } from '../../session/useSignOut.js';
import { useAuthDialog } from '../../auth/auth-dialog-store.js';
import { UserAvatar, avatarInitials } from '../UserAvatar/index.js';

/** Avatar button and menu (spec 01 §2 "Account menu"): guest variant or signed-in variant. */
export function AccountMenu() {
  const session = useSession();
  const signOut = useSignOut();
  const { open: openAuthDialog } = useAuthDialog();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const { user } = session;

  if (session.isLoading) return <Skeleton variant="circular" width={32} height={32} aria-label="Loading account" />;

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
        <MenuItem key="profile" component={RouterLink} to="/profile" onClick={close}>
          Profile
        </MenuItem>,
        <MenuItem key="notifications" component={RouterLink} to="/notifications" onClick={close}>
          Notifications
        </MenuItem>,
        session.isAdmin ? (
          // A plain link: /admin is a full page load (spec 01 §2).
          <MenuItem key="admin" component="a" href="/admin" onClick={close}>
            Admin Panel
          </MenuItem>
        ) : null,
        <Divider key="d2" />,
        <MenuItem
          key="signout"
          onClick={() => {
            close();
            void signOut();
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
            openAuthDialog('signin');
          }}
        >
          Sign In
        </MenuItem>,
      ];

  return (
    <>
      <IconButton
        // WCAG 2.5.3 (label in name): the visible initials are part of the name, so 'click EA' works by voice too.
        aria-label={user ? `Account menu: ${avatarInitials(user)}` : 'Account menu'}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        size="small"
      >
        <UserAvatar user={user} />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        {items}
      </Menu>
    </>
  );
}
