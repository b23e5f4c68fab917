import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert, AlertTitle, Box, Button } from '@mui/material';
import type { RemoteKey } from '@radar/contracts';
import { AppHeader, MainLandmark } from '@radar/shared-ui';
import { RollbackRemote } from './RollbackRemote.js';

export interface RemoteErrorBoundaryProps {
  /** User-facing name of the app, e.g. 'Dashboard'. */
  label: string;
  /** Starts a fresh load of the remote. */
  onRetry: () => void;
  /** Show the shell header above the error (for a remote that normally renders its own). */
  withHeader?: boolean;
  /** The remote, for an admin's Roll back in the error. */
  remote?: RemoteKey;
  /** After an admin's rollback (default: reload the page). */
  onRolledBack?: () => void;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** Contains a remote's load or render failure to the page area, with Retry. Header, footer and dialogs stay. */
export class RemoteErrorBoundary extends Component<RemoteErrorBoundaryProps, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept visible in the browser console for whoever is on call; the user sees the contained message.
    // eslint-disable-next-line no-console
    console.error(`[radar] ${this.props.label} app failed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <>
        {this.props.withHeader ? <AppHeader /> : null}
        <Box component={MainLandmark} sx={{ p: { xs: 2, md: 6 }, display: 'flex', justifyContent: 'center' }}>
          <Alert
            severity="error"
            sx={{ maxWidth: 640, width: '100%' }}
            action={
              <Button color="inherit" variant="outlined" size="small" onClick={this.props.onRetry}>
                Retry
              </Button>
            }
          >
            <AlertTitle>{this.props.label} is unavailable</AlertTitle>
            {this.state.error.name === 'RemoteIncompatibleError' ? (
              <>
                This version of {this.props.label} does not fit this site: {this.state.error.message} An administrator can roll it back to the previous version;
                the rest of the site keeps working.
              </>
            ) : (
              <>This part of M365 Radar could not be loaded. Check your connection and try again; the rest of the site keeps working.</>
            )}
            {this.props.remote ? (
              <Box sx={{ mt: 1 }}>
                <RollbackRemote remote={this.props.remote} label={this.props.label} onRolledBack={this.props.onRolledBack} />
              </Box>
            ) : null}
          </Alert>
        </Box>
      </>
    );
  }
}
