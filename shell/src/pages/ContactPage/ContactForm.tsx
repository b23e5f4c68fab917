import { useState, type FormEvent } from 'react';
import { Alert, AlertTitle, Box, Button, Stack, TextField } from '@mui/material';
import { contactRequest, type ContactRequest } from '@radar/contracts';
import { useToast } from '@radar/shared-ui';
import { sendContactMessage } from '../../api/contact.js';

type Field = keyof ContactRequest;
const EMPTY: ContactRequest = { firstName: '', lastName: '', email: '', message: '' };

/** The contact form, POST /api/contact, then a success view. */
export function ContactForm() {
  const { toast } = useToast();
  const [values, setValues] = useState<ContactRequest>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = contactRequest.safeParse(values);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    setSending(true);
    try {
      await sendContactMessage(parsed.data);
      setSent(true);
      setValues(EMPTY);
    } catch {
      toast({ title: 'Error sending message', description: 'Please try again later or contact us directly.', variant: 'destructive' });
    } finally {
      setSending(false);
    }
  };

  if (sent) {
    return (
      <Alert
        severity="success"
        action={
          <Button color="inherit" onClick={() => setSent(false)}>
            Send another message
          </Button>
        }
      >
        <AlertTitle>Message sent</AlertTitle>
        Thank you for contacting us. We will get back to you soon.
      </Alert>
    );
  }

  const field = (name: Field, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={values[name]}
      onChange={(e) => set(name, e.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      fullWidth
      {...extra}
    />
  );

  return (
    <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)} aria-label="Contact form">
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {field('firstName', 'First name', { autoComplete: 'given-name' })}
          {field('lastName', 'Last name', { autoComplete: 'family-name' })}
        </Stack>
        {field('email', 'Email', { type: 'email', autoComplete: 'email' })}
        {field('message', 'Message', { multiline: true, minRows: 5 })}
        <Box>
          <Button type="submit" variant="contained" disabled={sending}>
            {sending ? 'Sending...' : 'Send Message'}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
