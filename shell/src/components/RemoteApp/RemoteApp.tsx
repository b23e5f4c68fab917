import { Suspense, lazy, useState } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { AppHeader } from '@radar/shared-ui';
import { REMOTE_LABELS, loadRemoteApp, type RemoteKey } from '../../federation/remotes.js';
import { RemoteErrorBoundary } from './RemoteErrorBoundary.js';

export interface RemoteAppProps {
  remote: RemoteKey;
  /** Loads the remote's ./App (tests pass their own). */
  load?: typeof loadRemoteApp;
  /**
   * The remote renders the page header itself (the dashboard, for its Export button), so the shell hides its own.
   * While it loads or after it failed, the shell shows the header here so navigation keeps working.
   */
  ownsHeader?: boolean;
}

function RemoteLoading({ label, withHeader }: { label: string; withHeader: boolean }) {
  return (
    <>
      {withHeader ? <AppHeader /> : null}
      <Box role="status" aria-live="polite" sx={{ py: 10, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}>
      <CircularProgress aria-label={`Loading ${label}`} />
      <Typography color="text.secondary">Loading {label}...</Typography>
      </Box>
    </>
  );
}

/**
 * A remote's ./App with a loading state and a contained error. Retry needs a new React.lazy per attempt: a lazy
 * component keeps its rejected promise forever, while the federation runtime does not cache failures. The boundary
 * is keyed by remote too: moving between two remote routes reuses this component, and an error must not carry over.
 */
export function RemoteApp({ remote, load = loadRemoteApp, ownsHeader = false }: RemoteAppProps) {
  const [loading, setLoading] = useState(() => startLoading(remote, load, 0));
  // Another remote's route reuses this component: start that remote's load (adjusted during render).
  if (loading.remote !== remote || loading.load !== load) setLoading(startLoading(remote, load, 0));
  const label = REMOTE_LABELS[remote];
  const { Remote, attempt } = loading;
  return (
    <RemoteErrorBoundary
      key={`${remote}:${attempt}`}
      label={label}
      withHeader={ownsHeader}
      onRetry={() => setLoading(startLoading(remote, load, attempt + 1))}
    >
      <Suspense fallback={<RemoteLoading label={label} withHeader={ownsHeader} />}>
        <Remote />
      </Suspense>
    </RemoteErrorBoundary>
  );
}

/** One load attempt of a remote: a fresh React.lazy, so a retry really fetches again. */
function startLoading(remote: RemoteKey, load: typeof loadRemoteApp, attempt: number) {
  return { remote, load, attempt, Remote: lazy(() => load(remote)) };
}
