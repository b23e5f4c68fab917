import { useEffect } from 'react';
import { Dialog, DialogTitle, IconButton } from '@mui/material';
import { useAuthDialog, useAuthDialogStore } from '../../auth/auth-dialog-store.js';
import { useSession } from '../../session/useSession.js';
import { CloseIcon } from '../icons.js';
import { CodeStep } from './CodeStep.js';
import { EmailStep } from './EmailStep.js';
import { useAuthFlow } from './useAuthFlow.js';

export interface AuthDialogProps {
  /** What happens after the session is refreshed; the default reloads the page. */
  reload?: () => void;
}

/** The passwordless sign-in / sign-up dialog, opened anywhere with `useAuthDialog().open(mode)`. */
export function AuthDialog({ reload = () => window.location.reload() }: AuthDialogProps) {
  const { isOpen, mode, close, setMode } = useAuthDialog();
  const { refresh } = useSession();
  const flow = useAuthFlow({
    mode,
    onSignedIn: async () => {
      close();
      flow.reset();
      await refresh().catch(() => undefined);
      reload();
    },
  });
  const codeFor = useAuthDialogStore((s) => s.codeFor);
  const { enterCode } = flow;
  useEffect(() => {
    if (isOpen && codeFor) enterCode(codeFor);
    // enterCode only sets state; the dialog opens at the code step once per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isOpen, codeFor]);
  const onClose = () => {
    close();
    flow.reset();
  };
  const title = flow.step === 'code' ? 'Enter Verification Code' : mode === 'signup' ? 'Create Account' : 'Sign In';
  return (
    <Dialog open={isOpen} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="auth-dialog-title">
      <DialogTitle id="auth-dialog-title" sx={{ pr: 6 }}>
        {title}
      </DialogTitle>
      <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
        <CloseIcon />
      </IconButton>
      {flow.step === 'email' ? <EmailStep mode={mode} flow={flow} onSwitchMode={setMode} /> : <CodeStep flow={flow} />}
    </Dialog>
  );
}
