import { useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import { useSignOutEverywhere } from '@radar/shared-ui';

/** Ends every session of the account (other browsers and devices, and this one), after a confirmation. */
export function SignOutEverywhere() {
  const signOutEverywhere = useSignOutEverywhere();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    await signOutEverywhere();
    setBusy(false);
    setOpen(false);
  };
  return (
    <Box component="section" aria-labelledby="profile-security-heading">
      <Typography id="profile-security-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
        Sessions
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Signed in on a computer you no longer use, or lost a device? Sign out everywhere ends every session of your account.
      </Typography>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
        Sign out everywhere
      </Button>
      <Dialog open={open} onClose={() => (busy ? undefined : setOpen(false))} aria-describedby="sign-out-everywhere-description">
        <DialogTitle>Sign out everywhere?</DialogTitle>
        <DialogContent>
          <DialogContentText id="sign-out-everywhere-description">
            Every browser and device signed in to your account will be signed out, this one included. You can sign in again with a new code.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={busy} autoFocus>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={() => void confirm()} disabled={busy}>
            {busy ? 'Signing out...' : 'Sign out everywhere'}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
