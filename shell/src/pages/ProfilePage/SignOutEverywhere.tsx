import { Box, Button, Typography } from '@mui/material';
import { useDialogs, useSignOutEverywhere } from '@radar/shared-ui';

/** Ends every session of the account (other browsers and devices, and this one), after a confirmation. */
export function SignOutEverywhere() {
  const signOutEverywhere = useSignOutEverywhere();
  const dialogs = useDialogs();
  const ask = () =>
    dialogs.confirm('Every browser and device signed in to your account will be signed out, this one included. You can sign in again with a new code.', {
      title: 'Sign out everywhere?',
      okText: 'Sign out everywhere',
      busyText: 'Signing out...',
      action: signOutEverywhere,
    });
  return (
    <Box component="section" aria-labelledby="profile-security-heading">
      <Typography id="profile-security-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
        Sessions
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Signed in on a computer you no longer use, or lost a device? Sign out everywhere ends every session of your account.
      </Typography>
      <Button variant="outlined" color="error" onClick={() => void ask()}>
        Sign out everywhere
      </Button>
    </Box>
  );
}
