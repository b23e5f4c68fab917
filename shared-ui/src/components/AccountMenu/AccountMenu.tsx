import { useState } from 'react';
import { IconButton, Skeleton } from '@mui/material';
import { useSession } from '../../session/useSession.js';
import { useSignOut } from '../../session/useSignOut.js';
import { useAuthDialog } from '../../auth/auth-dialog-store.js';
import { Deferred, lazyNamed } from '../../lazy/Deferred.js';
import { UserAvatar, avatarInitials } from '../UserAvatar/index.js';

// The menu comes with MUI's popover and modal code, which no first paint needs.
const AccountMenuPopup = lazyNamed(() => import('./AccountMenuPopup.js'), 'AccountMenuPopup');

/** Avatar button and menu: guest variant or signed-in variant. */
export function AccountMenu() {
  const session = useSession();
  const signOut = useSignOut();
  const { open: openAuthDialog } = useAuthDialog();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const { user } = session;

  // The placeholder takes the avatar button's box (a small IconButton: 5 px around the 32 px avatar), so the page does
  // not move when the session answers (a server-rendered page shows it until then).
  if (session.isLoading) return <Skeleton variant="circular" width={32} height={32} sx={{ m: '5px', flexShrink: 0 }} aria-label="Loading account" />;

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
      <Deferred open={Boolean(anchor)}>
        <AccountMenuPopup anchor={anchor} session={session} onClose={close} onSignIn={() => openAuthDialog('signin')} onSignOut={() => void signOut()} />
      </Deferred>
    </>
  );
}
