import { useEffect, useState, type ComponentType } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { routes } from '@radar/contracts';
import { AppHeader, callEndpoint } from '@radar/shared-ui';
import { REMOTE_LABELS, earlyRemoteApp, loadRemoteApp, registeredRemoteUrl, type RemoteKey } from '../../federation/remotes.js';
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
  /** After an admin rolled the remote back from its error (default: reload the page). */
  onRolledBack?: () => void;
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

type Loaded = { attempt: string; App?: ComponentType; error?: unknown };

const reported = new Set<RemoteKey>();

/**
 * Tells the api this page loaded `remote` from its registry URL (Admin → Remotes, "Last loaded"): once per page and
 * remote; the api writes at most one record a minute. A failed report changes nothing for the user.
 */
export function reportLoaded(remote: RemoteKey): void {
  const url = registeredRemoteUrl(remote);
  if (!url || reported.has(remote)) return;
  reported.add(remote);
  void callEndpoint(routes.remotes.loaded, { params: { name: remote }, body: { url } }).catch(() => undefined);
}

/** Rethrows a load failure while rendering, so the boundary contains it like a render failure. */
function Failed({ error }: { error: unknown }): never {
  throw error instanceof Error ? error : new Error(String(error));
}

/**
 * A remote's ./App with a loading state and a contained error. Loaded into state rather than with React.lazy and
 * Suspense: React holds back content that replaces a Suspense fallback until 300 ms after the fallback appeared,
 * which on a fast load would be most of the time to the first row. Each attempt (Retry) calls `load` again: the
 * federation runtime does not cache failures. The boundary is keyed by remote and attempt: moving between two
 * remote routes reuses this component, and an error must not carry over.
 */
export function RemoteApp({ remote, load = loadRemoteApp, ownsHeader = false, onRolledBack }: RemoteAppProps) {
  const [retries, setRetries] = useState(0);
  const attempt = `${remote}:${retries}`;
  const [loaded, setLoaded] = useState<Loaded>({ attempt: '' });
  // The App the entry loaded before the first render (loadRemoteAppEarly) renders at once, without a loading frame.
  const early = load === loadRemoteApp && retries === 0 ? earlyRemoteApp(remote) : undefined;
  const label = REMOTE_LABELS[remote];
  useEffect(() => {
    if (early) {
      reportLoaded(remote);
      return;
    }
    let current = true;
    load(remote).then(
      (module) => {
        if (!current) return;
        setLoaded({ attempt, App: module.default });
        reportLoaded(remote);
      },
      (error: unknown) => current && setLoaded({ attempt, error }),
    );
    return () => {
      current = false;
    };
  }, [attempt, remote, load, early]);
  const state: Loaded | undefined = early ? { attempt, App: early } : loaded.attempt === attempt ? loaded : undefined;
  return (
    <RemoteErrorBoundary
      key={attempt}
      label={label}
      remote={remote}
      withHeader={ownsHeader}
      onRetry={() => setRetries((n) => n + 1)}
      onRolledBack={onRolledBack}
    >
      {state?.App ? <state.App /> : state?.error !== undefined ? <Failed error={state.error} /> : <RemoteLoading label={label} withHeader={ownsHeader} />}
    </RemoteErrorBoundary>
  );
}
