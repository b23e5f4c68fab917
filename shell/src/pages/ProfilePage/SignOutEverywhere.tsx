import { useState } from 'react';
import { Box, Button, Checkbox, FormControlLabel, Typography } from '@mui/material';
import { routes } from '@radar/contracts';
import { useDialogs, useEndpoint, useSignOutEverywhere } from '@radar/shared-ui';

/**
 * Ends every session of the account (other browsers and devices, and this one), after a confirmation; offers to
 * revoke the account's API tokens too, which a sign-out alone leaves working for the scripts that use them.
 */
export function SignOutEverywhere() {
  const signOutEverywhere = useSignOutEverywhere();
  const dialogs = useDialogs();
  const tokens = useEndpoint(routes.tokens.list, {});
  const count = tokens.data?.length ?? 0;
  const [revokeTokens, setRevokeTokens] = useState(false);
  const ask = () =>
    dialogs.confirm(
      `Every browser and device signed in to your account will be signed out, this one included.${
        revokeTokens ? ` Your ${count === 1 ? 'API token is' : `${count} API tokens are`} revoked too.` : ''
      } You can sign in again with a new code.`,
      {
        title: 'Sign out everywhere?',
        okText: 'Sign out everywhere',
        busyText: 'Signing out...',
        action: () => signOutEverywhere({ revokeTokens }),
      },
    );
  return (
    <Box component="section" aria-labelledby="profile-security-heading">
      <Typography id="profile-security-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
        Sessions
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Signed in on a computer you no longer use, or lost a device? Sign out everywhere ends every session of your account.
      </Typography>
      {count > 0 ? (
        <FormControlLabel
          sx={{ display: 'flex', mb: 1 }}
          control={<Checkbox checked={revokeTokens} onChange={(event) => setRevokeTokens(event.target.checked)} />}
          label={`Also revoke my ${count === 1 ? 'API token' : `${count} API tokens`}`}
        />
      ) : null}
      <Button variant="outlined" color="error" onClick={() => void ask()}>
        Sign out everywhere
      </Button>
    </Box>
  );
}
