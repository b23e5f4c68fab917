import type { ReactNode } from 'react';
import type { SWRConfiguration } from 'swr';
import { RadarThemeProvider } from '../../theme/ThemeProvider.js';
import { SwrProvider } from '../../api/SwrProvider.js';
import { ToastProvider } from '../../toast/ToastProvider.js';
import { AuthDialog } from '../AuthDialog/index.js';
import { DialogsProvider } from '../Dialogs/index.js';

export interface RadarProvidersProps {
  children: ReactNode;
  /** SWR overrides (tests pass `{ provider: () => new Map() }`). */
  swr?: SWRConfiguration;
  /** Render the sign-in dialog (the host does; so do remotes running standalone). */
  withAuthDialog?: boolean;
}

/**
 * Everything a page of M365 Radar expects around it: theme, SWR defaults, toasts, the confirm dialog and the sign-in
 * dialog.
 * The shell renders it once; a remote renders it only when it runs standalone.
 */
export function RadarProviders({ children, swr, withAuthDialog = true }: RadarProvidersProps) {
  return (
    <RadarThemeProvider>
      <SwrProvider value={swr}>
        <ToastProvider>
          <DialogsProvider>
            {children}
            {withAuthDialog ? <AuthDialog /> : null}
          </DialogsProvider>
        </ToastProvider>
      </SwrProvider>
    </RadarThemeProvider>
  );
}
