import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { Alert, Button } from '@mui/material';
import { routes } from '@radar/contracts';
import { callEndpoint } from '../../api/endpoint-client.js';
import { useSession } from '../../session/useSession.js';
import { useToastStore } from '../../toast/toast-store.js';

/**
 * Shown on every page while the signed-in admin impersonates a role (the session user carries `impersonatedRole`),
 * so nobody forgets that what they see and may do is that role's, with a way back.
 */
export function ImpersonationBanner() {
  const { user } = useSession();
  const { mutate } = useSWRConfig();
  const toast = useToastStore((s) => s.toast);
  const [clearing, setClearing] = useState(false);
  const role = user?.impersonatedRole;
  if (!role) return null;

  const clear = async () => {
    setClearing(true);
    try {
      await callEndpoint(routes.admin.clearImpersonation);
      // Roles change everything a page shows: refetch every cached answer.
      await mutate(() => true);
    } catch {
      toast({ title: 'Error', description: 'Failed to clear impersonation', variant: 'destructive' });
    } finally {
      setClearing(false);
    }
  };

  return (
    <Alert
      severity="warning"
      role="status"
      aria-label="Impersonation"
      sx={{ borderRadius: 0, justifyContent: 'center', alignItems: 'center' }}
      action={
        <Button color="inherit" size="small" variant="outlined" onClick={() => void clear()} disabled={clearing}>
          {clearing ? 'Stopping...' : 'Stop impersonating'}
        </Button>
      }
    >
      {`You are impersonating the ${role} role: you see and can do only what a ${role} can.`}
    </Alert>
  );
}
