import { useState } from 'react';
import { IconButton } from '@mui/material';
import { useSession } from '../../session/useSession.js';
import { Deferred, lazyNamed } from '../../lazy/Deferred.js';
import { MenuIcon } from '../icons.js';

// The drawer comes with MUI's modal code, which no first paint needs.
const MobileNavDrawer = lazyNamed(() => import('./MobileNavDrawer.js'), 'MobileNavDrawer');

/** Menu button and left drawer for small screens; signed-in users also get Sign Out (to /api/logout). */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  const { isAuthenticated } = useSession();
  const close = () => setOpen(false);
  return (
    <>
      <IconButton aria-label="Open menu" color="inherit" onClick={() => setOpen(true)} sx={{ display: { md: 'none' } }}>
        <MenuIcon />
      </IconButton>
      <Deferred open={open}>
        <MobileNavDrawer open={open} isAuthenticated={isAuthenticated} onClose={close} />
      </Deferred>
    </>
  );
}
