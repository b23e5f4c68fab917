import { useEffect, useEffectEvent, useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type User } from '@radar/contracts';
import { serverMessageOf, SIGNUP_SUCCESS_CLOSE_MS, signUpForWeeklyDigest, useSession, useToast } from '@radar/shared-ui';

export const SIGNUP_FAILED_MESSAGE = 'Failed to sign up. Please try again.';
/** Double opt-in: nothing is sent until the address is confirmed, so the success view sends the visitor to the inbox. */
export const CHECK_INBOX_MESSAGE = 'We sent you a link to confirm your address. Once you confirm it, the weekly digest arrives every Sunday.';

type Phase = 'form' | 'submitting' | 'success';
interface Fields {
  firstName: string;
  lastName: string;
  email: string;
}

const EMPTY: Fields = { firstName: '', lastName: '', email: '' };

/** Fills the empty fields from the signed-in user; never overwrites what was typed. */
function prefill(fields: Fields, user: User | null): Fields {
  if (!user) return fields;
  return {
    firstName: fields.firstName || user.firstName || '',
    lastName: fields.lastName || user.lastName || '',
    email: fields.email || user.email || '',
  };
}

export interface DigestSignupDialogProps {
  open: boolean;
  /** Called when the dialog asks to close: Cancel, Escape, backdrop, or the success view's auto-close. */
  onClose: () => void;
}

/**
 * Weekly digest signup: form → submitting → success view that closes by itself after
 * SIGNUP_SUCCESS_CLOSE_MS and resets the fields. The signup is double opt-in, so the success view asks the visitor
 * to confirm the address from their inbox. All three fields are required; Sign Up stays disabled while any
 * is empty. A failure shows a destructive toast with the server's message (a field issue's own text, without the
 * field-name prefix), or the fixed text when the server gave none.
 */
export function DigestSignupDialog({ open, onClose }: DigestSignupDialogProps) {
  const { user } = useSession();
  const { toast } = useToast();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [phase, setPhase] = useState<Phase>('form');
  const [successMessage, setSuccessMessage] = useState('');

  // Opening starts at the form, prefilled for a signed-in user (also when the session arrives while open).
  // Adjusting state during render, not in an effect, so the previous success view never flashes on reopen.
  const [seen, setSeen] = useState<{ open: boolean; userId: number | null }>({ open: false, userId: null });
  const userId = user?.id ?? null;
  if (seen.open !== open || seen.userId !== userId) {
    setSeen({ open, userId });
    if (open) {
      if (!seen.open) setPhase('form');
      setFields((current) => prefill(current, user));
    }
  }

  const finish = () => {
    setFields(EMPTY);
    setSuccessMessage('');
    onClose();
  };
  // The auto-close timer calls the latest onClose without restarting when the parent re-renders.
  const finishLater = useEffectEvent(finish);

  useEffect(() => {
    if (phase !== 'success') return undefined;
    const timer = setTimeout(finishLater, SIGNUP_SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  const trimmed = { firstName: fields.firstName.trim(), lastName: fields.lastName.trim(), email: fields.email.trim() };
  const isComplete = Boolean(trimmed.firstName && trimmed.lastName && trimmed.email);
  const isSubmitting = phase === 'submitting';

  const fail = (message: string | undefined) => {
    setPhase('form');
    toast({ title: 'Error', description: message || SIGNUP_FAILED_MESSAGE, variant: 'destructive' });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isComplete || isSubmitting) return;
    setPhase('submitting');
    try {
      const result = await signUpForWeeklyDigest(trimmed);
      if (!result.success) {
        fail(result.message);
        return;
      }
      setSuccessMessage(result.message);
      setPhase('success');
    } catch (error) {
      fail(serverMessageOf(error));
    }
  };

  const requestClose = () => {
    if (isSubmitting) return;
    if (phase === 'success') finish();
    else onClose();
  };

  const field = (name: keyof Fields, label: string, extra: { type?: string; autoComplete: string; autoFocus?: boolean }) => (
    <TextField
      label={label}
      name={name}
      required
      fullWidth
      disabled={isSubmitting}
      value={fields[name]}
      onChange={(event) => setFields((current) => ({ ...current, [name]: event.target.value }))}
      type={extra.type ?? 'text'}
      autoComplete={extra.autoComplete}
      autoFocus={extra.autoFocus}
    />
  );

  return (
    <Dialog open={open} onClose={requestClose} fullWidth maxWidth="xs" aria-describedby="digest-signup-description">
      <DialogTitle>Sign Up for Weekly Digest</DialogTitle>
      {phase === 'success' ? (
        <DialogContent>
          <Box role="status" sx={{ textAlign: 'center', py: 2 }}>
            <Typography variant="h6" component="p" sx={{ fontWeight: 600 }}>
              ✓ Check your inbox
            </Typography>
            <Typography id="digest-signup-description" color="text.secondary" sx={{ mt: 1 }}>
              {successMessage || CHECK_INBOX_MESSAGE}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              This window closes automatically.
            </Typography>
          </Box>
          <DialogActions>
            <Button onClick={finish} autoFocus>
              Close
            </Button>
          </DialogActions>
        </DialogContent>
      ) : (
        <Box component="form" noValidate onSubmit={submit} aria-busy={isSubmitting} aria-label="Weekly digest signup">
          <DialogContent sx={{ pt: 0 }}>
            <DialogContentText id="digest-signup-description" sx={{ mb: 2 }}>
              Get new and updated roadmap items and Message Center posts in your inbox every Sunday.
            </DialogContentText>
            <Stack spacing={2}>
              {field('firstName', 'First Name', { autoComplete: 'given-name', autoFocus: true })}
              {field('lastName', 'Last Name', { autoComplete: 'family-name' })}
              {field('email', 'Email', { type: 'email', autoComplete: 'email' })}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={requestClose} disabled={isSubmitting}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={!isComplete || isSubmitting}
              startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
            >
              {isSubmitting ? 'Signing Up...' : 'Sign Up'}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
