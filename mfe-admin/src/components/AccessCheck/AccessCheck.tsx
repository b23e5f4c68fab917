import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { errorBody, routes } from '@radar/contracts';
import { ApiError, callEndpoint, passkeyCancelled, serverMessageOf, signInWithPasskey, useAuthDialog, useSession } from '@radar/shared-ui';
import { useRoles } from '../../api/admin.js';
import { useImpersonation } from '../ImpersonationCard/useImpersonation.js';

/** The admin routes refused this session for its second factor (ADMIN_SECOND_FACTOR), with the server's reason. */
function secondFactorRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  const body = error.bodyAs(errorBody);
  return body?.error.name === 'SecondFactorRequired' ? body.error.message : null;
}

/**
 * Admin access is decided by the roles call: checking while it loads, Access Denied when it fails (or what the second
 * factor needs, when that is why), the children once it answers, under a reminder to add a passkey for an admin who
 * has none. The server enforces the role and the second factor on every admin route regardless.
 */
export function AccessCheck({ children }: { children: ReactNode }) {
  const { data, error } = useRoles();
  const { user } = useSession();
  const refusal = secondFactorRefusal(error);
  if (refusal) return <SecondFactorGate reason={refusal} state={user?.secondFactor?.state ?? 'verify-passkey'} />;
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
  return (
    <>
      {user?.secondFactor && !user.secondFactor.hasPasskey ? (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" component={RouterLink} to="/profile">
              Add a passkey
            </Button>
          }
        >
          Add a passkey to your profile: the admin pages will then ask for it instead of a recent e-mailed code.
        </Alert>
      ) : null}
      {children}
    </>
  );
}

/**
 * What an admin does when the session lacks the second factor: sign in with their passkey (then the page reloads),
 * add one on the profile, or sign in again when their code sign-in is too old.
 */
function SecondFactorGate({ reason, state }: { reason: string; state: string }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { open } = useAuthDialog();
  const verifyWithPasskey = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await signInWithPasskey();
      window.location.reload();
    } catch (err) {
      if (!passkeyCancelled(err)) setProblem(serverMessageOf(err) ?? 'The passkey could not be used: try again');
      setBusy(false);
    }
  };
  const signInAgain = async () => {
    await callEndpoint(routes.auth.logout).catch(() => undefined);
    open('signin');
  };
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <Paper variant="outlined" sx={{ p: 4, maxWidth: 520, textAlign: 'center' }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          Verify it’s you
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {reason}
        </Typography>
        {problem ? (
          <Alert severity="error" sx={{ mb: 2, textAlign: 'left' }}>
            {problem}
          </Alert>
        ) : null}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
          {state === 'verify-passkey' ? (
            <Button variant="contained" onClick={() => void verifyWithPasskey()} disabled={busy}>
              {busy ? 'Waiting for your passkey...' : 'Sign in with your passkey'}
            </Button>
          ) : state === 'add-passkey' ? (
            <Button variant="contained" component={RouterLink} to="/profile">
              Add a passkey
            </Button>
          ) : (
            <Button variant="contained" onClick={() => void signInAgain()}>
              Sign in again
            </Button>
          )}
          <Button variant="outlined" component={RouterLink} to="/dashboard">
            Go to Dashboard
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
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
