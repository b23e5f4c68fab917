import type { FormEvent } from 'react';
import { Box, Button, DialogActions, DialogContent, Link, Stack, TextField, Typography } from '@mui/material';
import type { AuthMode } from '../../auth/auth-dialog-store.js';
import { PasskeySignIn } from './PasskeySignIn.js';
import type { AuthFlow } from './useAuthFlow.js';

export interface EmailStepProps {
  mode: AuthMode;
  flow: AuthFlow;
  onSwitchMode: (mode: AuthMode) => void;
}

/** Step 1: e-mail (and first/last name when creating an account). */
export function EmailStep({ mode, flow, onSwitchMode }: EmailStepProps) {
  const { fields, errors, busy, setField, submitEmail } = flow;
  const isSignup = mode === 'signup';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submitEmail();
  };
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent sx={{ pt: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {isSignup
            ? 'Create an account to subscribe to items and the weekly digest. We will e-mail you a 6-digit code.'
            : 'Enter your e-mail address and we will send you a 6-digit sign-in code.'}
        </Typography>
        <Stack spacing={2}>
          {isSignup ? (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="First name"
                value={fields.firstName}
                onChange={(e) => setField('firstName', e.target.value)}
                error={Boolean(errors.firstName)}
                helperText={errors.firstName}
                autoComplete="given-name"
                autoFocus
                fullWidth
              />
              <TextField
                label="Last name"
                value={fields.lastName}
                onChange={(e) => setField('lastName', e.target.value)}
                error={Boolean(errors.lastName)}
                helperText={errors.lastName}
                autoComplete="family-name"
                fullWidth
              />
            </Stack>
          ) : null}
          <TextField
            label="Email"
            type="email"
            value={fields.email}
            onChange={(e) => setField('email', e.target.value)}
            error={Boolean(errors.email)}
            helperText={errors.email}
            // "webauthn" lets the browser offer passkeys in this field's suggestions (conditional UI) when signing in.
            autoComplete={isSignup ? 'email' : 'email webauthn'}
            // Focus starts in the first field: the e-mail when signing in, the first name when signing up.
            autoFocus={!isSignup}
            fullWidth
          />
        </Stack>
        {isSignup ? null : <PasskeySignIn onSignedIn={flow.passkeySignedIn} />}
        <Typography variant="body2" sx={{ mt: 2 }}>
          {isSignup ? 'Already have an account? ' : "Don't have an account? "}
          <Link component="button" type="button" onClick={() => onSwitchMode(isSignup ? 'signin' : 'signup')}>
            {isSignup ? 'Sign in' : 'Sign up'}
          </Link>
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button type="submit" variant="contained" disabled={busy || !fields.email.trim()}>
          {busy ? 'Sending...' : 'Send Code'}
        </Button>
      </DialogActions>
    </Box>
  );
}
