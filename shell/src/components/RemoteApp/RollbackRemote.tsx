import { useState } from 'react';
import { Button, Typography } from '@mui/material';
import { routes, type RemoteKey } from '@radar/contracts';
import { callEndpoint, serverMessageOf, useSession } from '@radar/shared-ui';

export interface RollbackRemoteProps {
  remote: RemoteKey;
  label: string;
  /** After a successful rollback: reload the page, which then loads the previous build (tests pass their own). */
  onRolledBack?: () => void;
}

/**
 * For admins, in a remote's contained error: roll the remote back to its previous URL (Admin → Remotes' Rollback).
 * The one way out in the browser when the broken remote is the admin app itself.
 */
export function RollbackRemote({ remote, label, onRolledBack = () => window.location.reload() }: RollbackRemoteProps) {
  const { isAdmin } = useSession();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!isAdmin) return null;
  const rollback = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await callEndpoint(routes.remotes.rollback, { params: { name: remote } });
      onRolledBack();
    } catch (error) {
      setProblem(serverMessageOf(error) ?? (error instanceof Error ? error.message : String(error)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button color="inherit" variant="outlined" size="small" disabled={busy} onClick={() => void rollback()}>
        Roll back {label}
      </Button>
      {problem ? (
        <Typography role="status" variant="body2" sx={{ mt: 1 }}>
          {problem}
        </Typography>
      ) : null}
    </>
  );
}
