import { useState } from 'react';
import type { ZodType } from 'zod';
import { sendCodeRequest, signupRequest, verifyCodeRequest, type ResultMessage } from '@radar/contracts';
import { apiRequest, serverMessageOf } from '../../api/api-client.js';
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

/** Failure texts of spec 01 §8, per call. */
const FAILURES = {
  signup: { title: 'Signup failed', error: 'An error occurred during signup. Please try again.' },
  signin: { title: 'Sign in failed', error: 'An error occurred during sign in. Please try again.' },
  verify: { title: 'Verification failed', error: 'An error occurred during verification. Please try again.' },
} as const;


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

/** State and calls of the two-step passwordless sign-in (spec 01 §4, §5, §8). */
export function useAuthFlow({ mode, onSignedIn }: AuthFlowOptions) {
  const toast = useToastStore((s) => s.toast);
  const [step, setStep] = useState<AuthStep>('email');
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [sentTo, setSentTo] = useState('');
  const [errors, setErrors] = useState<Partial<Record<AuthField, string>>>({});
  const [busy, setBusy] = useState(false);

  const setField = (field: AuthField, value: string) => {
    const next = field === 'code' ? value.replace(/\D/g, '').slice(0, 6) : value;
    setFields((f) => ({ ...f, [field]: next }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const call = async (url: string, body: unknown, kind: keyof typeof FAILURES): Promise<boolean> => {
    setBusy(true);
    try {
      const result = await apiRequest<ResultMessage>('POST', url, body);
      if (result?.success) return true;
      toast({ title: FAILURES[kind].title, description: result?.message, variant: 'destructive' });
      return false;
    } catch (error) {
      const message = serverMessageOf(error);
      toast({ title: FAILURES[kind].title, description: message ?? FAILURES[kind].error, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const codeSent = () => toast({ title: 'Verification code sent', description: 'Please check your email for the 6-digit verification code.' });

  const submitEmail = async () => {
    const isSignup = mode === 'signup';
    const { data, errors: found } = isSignup
      ? fieldErrors(signupRequest, { firstName: fields.firstName, lastName: fields.lastName, email: fields.email })
      : fieldErrors(sendCodeRequest, { email: fields.email });
    setErrors(found);
    if (!data) return;
    const ok = await call(isSignup ? '/api/auth/signup' : '/api/auth/send-code', data, isSignup ? 'signup' : 'signin');
    if (!ok) return;
    setSentTo(data.email);
    setStep('code');
    codeSent();
  };

  const resend = async () => {
    if (await call('/api/auth/send-code', { email: sentTo }, 'signin')) codeSent();
  };

  const verify = async () => {
    const { data, errors: found } = fieldErrors(verifyCodeRequest, { email: sentTo, code: fields.code });
    setErrors(found);
    if (!data) return;
    if (!(await call('/api/auth/verify-code', data, 'verify'))) return;
    queueToastAfterReload(WELCOME_TOAST);
    await onSignedIn();
  };

  const back = () => {
    setStep('email');
    setFields((f) => ({ ...f, code: '' }));
    setErrors({});
  };

  const reset = () => {
    setStep('email');
    setFields(EMPTY);
    setSentTo('');
    setErrors({});
  };

  return { step, fields, sentTo, errors, busy, setField, submitEmail, resend, verify, back, reset };
}

export type AuthFlow = ReturnType<typeof useAuthFlow>;
