import type { FormEvent } from 'react';
import { Box, Button, DialogActions, DialogContent, Link, TextField, Typography } from '@mui/material';
import { VERIFICATION_CODE_LENGTH } from '@radar/contracts';
import type { AuthFlow } from './useAuthFlow.js';

/** Step 2: the 6-digit code, 'Back to email entry' and Resend. */
export function CodeStep({ flow }: { flow: AuthFlow }) {
  const { fields, errors, busy, sentTo, setField, verify, resend, back } = flow;
  const complete = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`).test(fields.code);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void verify();
  };
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent sx={{ pt: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          We sent a 6-digit code to <strong>{sentTo}</strong>. It expires in a few minutes.
        </Typography>
        <TextField
          label="Verification code"
          value={fields.code}
          onChange={(e) => setField('code', e.target.value)}
          error={Boolean(errors.code)}
          helperText={errors.code}
          autoComplete="one-time-code"
          autoFocus
          fullWidth
          slotProps={{
            htmlInput: {
              inputMode: 'numeric',
              pattern: '[0-9]*',
              maxLength: VERIFICATION_CODE_LENGTH,
              style: { letterSpacing: '0.5em', fontSize: '1.25rem', textAlign: 'center' },
            },
          }}
        />
        <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 2 }}>
          <Link component="button" type="button" onClick={back}>
            Back to email entry
          </Link>
          <Link component="button" type="button" onClick={() => void resend()} disabled={busy}>
            Resend
          </Link>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button type="submit" variant="contained" disabled={busy || !complete}>
          {busy ? 'Signing in...' : 'Sign In'}
        </Button>
      </DialogActions>
    </Box>
  );
}
