import type { FormEvent } from 'react';
import { Box, Button, DialogActions, DialogContent, Link, TextField, Typography } from '@mui/material';
import { isRecoveryCodeForm, RECOVERY_CODE_LENGTH, VERIFICATION_CODE_LENGTH } from '@radar/contracts';
import type { AuthFlow } from './useAuthFlow.js';

/**
 * Step 2: the 6-digit code, 'Back to email entry' and Resend. Opened for a code the user already has (the recovery
 * link `npm run admin:recover` prints), it also takes the longer recovery code, letters and digits.
 */
export function CodeStep({ flow }: { flow: AuthFlow }) {
  const { fields, errors, busy, sentTo, codeGiven: recovery, setField, verify, resend, back } = flow;
  const complete = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`).test(fields.code) || (recovery && isRecoveryCodeForm(fields.code));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void verify();
  };
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent sx={{ pt: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {recovery ? (
            <>
              Enter the recovery code printed on the server for <strong>{sentTo}</strong>. It expires in a few minutes.
            </>
          ) : (
            <>
              We sent a 6-digit code to <strong>{sentTo}</strong>. It expires in a few minutes.
            </>
          )}
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
            htmlInput: recovery
              ? // Room for the recovery code typed with dashes or spaces between groups.
                { autoCapitalize: 'characters', spellCheck: false, maxLength: RECOVERY_CODE_LENGTH * 2, style: { fontSize: '1.1rem', textAlign: 'center' } }
              : {
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
