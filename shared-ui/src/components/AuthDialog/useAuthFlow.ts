import { useState } from 'react';
import type { ZodType } from 'zod';
import { RECOVERY_CODE_LENGTH, sendCodeRequest, signupRequest, verifyCodeRequest, type ResultMessage } from '@radar/contracts';
import { ApiError } from '../../api/api-client.js';
import { signIn } from '../../api/auth.js';
import { queueToastAfterReload, useToastStore } from '../../toast/toast-store.js';
import type { AuthMode } from '../../auth/auth-dialog-store.js';
import { WELCOME_TOAST } from './welcome-toast.js';

export type AuthField = 'firstName' | 'lastName' | 'email' | 'code';
export type AuthStep = 'email' | 'code';

interface Fields {
  firstName: string;
  lastName: string;
  email: string;
  code: string;
}
const EMPTY: Fields = { firstName: '', lastName: '', email: '', code: '' };

/** Failure texts per call (docs/product/sign-in.md). */
const FAILURES = {
  signup: { title: 'Signup failed', error: 'An error occurred during signup. Please try again.' },
  signin: { title: 'Sign in failed', error: 'An error occurred during sign in. Please try again.' },
  verify: { title: 'Verification failed', error: 'An error occurred during verification. Please try again.' },
} as const;

/**
 * A `success: false` answer shows the server's message; a network or server error shows the fixed text.
 * The api refuses with a 4xx error body instead of `success: false` (wrong code, rate limit, taken address): that is
 * the same kind of answer, so its message is shown too. A 5xx or no answer at all gets the fixed text.
 */
function refusalMessage(error: unknown): string | undefined {
  return error instanceof ApiError && error.status < 500 ? error.serverMessage : undefined;
}

function fieldErrors<T>(schema: ZodType<T>, value: unknown): { data?: T; errors: Partial<Record<AuthField, string>> } {
  const result = schema.safeParse(value);
  if (result.success) return { data: result.data, errors: {} };
  const errors: Partial<Record<AuthField, string>> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0]) as AuthField;
    errors[key] ??= issue.message;
  }
  return { errors };
}

export interface AuthFlowOptions {
  mode: AuthMode;
  /** Called after a successful verification (close the dialog, refresh the session, reload). */
  onSignedIn: () => void | Promise<void>;
}

/** State and calls of the two-step passwordless sign-in. */
export function useAuthFlow({ mode, onSignedIn }: AuthFlowOptions) {
  const toast = useToastStore((s) => s.toast);
  const [step, setStep] = useState<AuthStep>('email');
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [sentTo, setSentTo] = useState('');
  const [errors, setErrors] = useState<Partial<Record<AuthField, string>>>({});
  const [busy, setBusy] = useState(false);
  /** The code step was opened for a code the user already has (a recovery code: letters and digits, longer). */
  const [codeGiven, setCodeGiven] = useState(false);

  const setField = (field: AuthField, value: string) => {
    const recoveryCode = codeGiven && /[A-Za-z]/.test(value);
    const next = field !== 'code' ? value : recoveryCode ? value.slice(0, RECOVERY_CODE_LENGTH * 2) : value.replace(/\D/g, '').slice(0, 6);
    setFields((f) => ({ ...f, [field]: next }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const call = async (request: () => Promise<ResultMessage>, kind: keyof typeof FAILURES): Promise<boolean> => {
    setBusy(true);
    try {
      const result = await request();
      if (result.success) return true;
      toast({ title: FAILURES[kind].title, description: result.message, variant: 'destructive' });
      return false;
    } catch (error) {
      toast({ title: FAILURES[kind].title, description: refusalMessage(error) ?? FAILURES[kind].error, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const codeSent = () => toast({ title: 'Verification code sent', description: 'Please check your email for the 6-digit verification code.' });

  const codeSentTo = (email: string) => {
    setSentTo(email);
    setStep('code');
    codeSent();
  };

  const submitEmail = async () => {
    if (mode === 'signup') {
      const { data, errors: found } = fieldErrors(signupRequest, { firstName: fields.firstName, lastName: fields.lastName, email: fields.email });
      setErrors(found);
      if (data && (await call(() => signIn.signup(data), 'signup'))) codeSentTo(data.email);
      return;
    }
    const { data, errors: found } = fieldErrors(sendCodeRequest, { email: fields.email });
    setErrors(found);
    if (data && (await call(() => signIn.sendCode(data.email), 'signin'))) codeSentTo(data.email);
  };

  const resend = async () => {
    if (await call(() => signIn.sendCode(sentTo), 'signin')) codeSent();
  };

  const verify = async () => {
    const { data, errors: found } = fieldErrors(verifyCodeRequest, { email: sentTo, code: fields.code });
    setErrors(found);
    if (!data) return;
    if (!(await call(() => signIn.verifyCode(data), 'verify'))) return;
    queueToastAfterReload(WELCOME_TOAST);
    await onSignedIn();
  };

  /** The code step for a code the user already has (nothing is sent). */
  const enterCode = (email: string) => {
    setSentTo(email);
    setCodeGiven(true);
    setFields((f) => ({ ...f, email, code: '' }));
    setErrors({});
    setStep('code');
  };

  /** Signed in with a passkey instead of a code. */
  const passkeySignedIn = async () => {
    queueToastAfterReload(WELCOME_TOAST);
    await onSignedIn();
  };

  const back = () => {
    setStep('email');
    setCodeGiven(false);
    setFields((f) => ({ ...f, code: '' }));
    setErrors({});
  };

  const reset = () => {
    setStep('email');
    setCodeGiven(false);
    setFields(EMPTY);
    setSentTo('');
    setErrors({});
  };

  return { step, fields, sentTo, codeGiven, errors, busy, setField, submitEmail, resend, verify, passkeySignedIn, enterCode, back, reset };
}

export type AuthFlow = ReturnType<typeof useAuthFlow>;
