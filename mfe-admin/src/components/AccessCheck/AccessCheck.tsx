import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { useRoles } from '../../api/admin.js';
import { useImpersonation } from '../ImpersonationCard/useImpersonation.js';

/**
 * Admin access is decided by the roles call: checking while it loads, Access Denied when it fails,
 * the children once it answers. The server enforces the role on every admin route regardless.
 */
export function AccessCheck({ children }: { children: ReactNode }) {
  const { data, error } = useRoles();
  if (error) return <AccessDenied />;
  if (data === undefined) {
    return (
      <Stack role="status" spacing={2} sx={{ alignItems: 'center', py: 8 }}>
        <CircularProgress aria-hidden />
        <Typography variant="h5" component="h2">
          Checking Permissions
        </Typography>
        <Typography color="text.secondary">Verifying admin access...</Typography>
      </Stack>
    );
  }
  return <>{children}</>;
}

/**
 * Access Denied, with a way back for an admin who impersonates a lesser role: while impersonating,
 * 'Clear impersonation' restores their real roles, and the roles call (the access check) runs again.
 */
function AccessDenied() {
  const { status, busy, clear } = useImpersonation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <Paper variant="outlined" sx={{ p: 4, maxWidth: 480, textAlign: 'center' }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          Access Denied
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          You need administrator access to view this page.
        </Typography>
        {status?.isImpersonating ? (
          <Alert
            severity="warning"
            sx={{ mb: 3, textAlign: 'left' }}
            action={
              <Button color="inherit" size="small" variant="outlined" onClick={() => void clear()} disabled={busy}>
                Clear impersonation
              </Button>
            }
          >
            You are impersonating the {status.impersonatedRole} role.
          </Alert>
        ) : null}
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }}>
          <Button variant="contained" component={RouterLink} to="/dashboard">
            Go to Dashboard
          </Button>
          <Button variant="outlined" component={RouterLink} to="/contact">
            Request Access
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
