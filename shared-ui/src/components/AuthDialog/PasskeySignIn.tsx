import { useEffect, useState } from 'react';
import { Button, Divider, Stack, Typography } from '@mui/material';
import { serverMessageOf } from '../../api/api-client.js';
import { cancelPasskeyPrompt, passkeyCancelled, PasskeyNotChosenError, passkeySupport, signInWithPasskey } from '../../auth/passkeys.js';
import { PasskeyIcon } from '../icons.js';

export interface PasskeySignInProps {
  /** After the session cookie is set. */
  onSignedIn: () => Promise<void>;
}

/**
 * "Sign in with a passkey", where the browser supports passkeys; where it offers them in autofill (conditional UI),
 * they also appear in the e-mail field's suggestions while the dialog is open. Only an attempt the person started
 * reports a failure: the button, or a passkey picked from autofill that the server then refuses. The autofill offer
 * itself stays silent (no passkey on this browser, aborted, refused before a choice), a dismissed prompt says nothing,
 * and codes by e-mail keep working.
 */
export function PasskeySignIn({ onSignedIn }: PasskeySignInProps) {
  const [support, setSupport] = useState<{ available: boolean; autofill: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fail = (err: unknown) => {
    if (!passkeyCancelled(err)) setError(serverMessageOf(err) ?? 'The passkey could not be used: try again, or sign in with a code');
  };

  useEffect(() => {
    let live = true;
    passkeySupport()
      .then((found) => live && setSupport(found))
      .catch(() => live && setSupport({ available: false, autofill: false }));
    return () => {
      live = false;
    };
  }, []);

  const autofill = support?.autofill === true;
  useEffect(() => {
    if (!autofill) return;
    let live = true;
    signInWithPasskey({ autofill: true })
      .then(() => (live ? onSignedIn() : undefined))
      .catch((err: unknown) => live && !(err instanceof PasskeyNotChosenError) && fail(err));
    return () => {
      live = false;
      void cancelPasskeyPrompt().catch(() => undefined);
    };
    // The autofill prompt is started once per dialog; onSignedIn is the dialog's own for its lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autofill]);

  if (!support?.available) return null;
  const withButton = async () => {
    setBusy(true);
    setError(null);
    try {
      await signInWithPasskey();
      await onSignedIn();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={1.5} sx={{ mt: 2 }}>
      <Divider>or</Divider>
      <Button variant="outlined" startIcon={<PasskeyIcon />} onClick={() => void withButton()} disabled={busy}>
        {busy ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </Button>
      {error ? (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
    </Stack>
  );
}
