import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RadarProviders } from '../RadarProviders/index.js';
import { useAuthDialogStore } from '../../auth/auth-dialog-store.js';
import { useToastStore } from '../../toast/toast-store.js';
import { makeUser, stubFetch } from '../../test/fetch-stub.js';
import { AuthDialog } from './AuthDialog.js';

const signedOut = {
  'GET /api/auth/session-user': { body: { user: null } },
  'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Not signed in' } } },
};

function open(mode: 'signin' | 'signup', reload = jest.fn()) {
  render(
    <RadarProviders swr={{ provider: () => new Map() }} withAuthDialog={false}>
      <AuthDialog reload={reload} />
    </RadarProviders>,
  );
  act(() => useAuthDialogStore.getState().open(mode));
  return reload;
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

describe('AuthDialog', () => {
  beforeEach(() => {
    useAuthDialogStore.setState({ isOpen: false, mode: 'signin' });
    useToastStore.setState({ toasts: [] });
  });

  it('sign-up validates every field with the field messages of docs/product/sign-in.md', async () => {
    const { calls } = stubFetch(signedOut);
    open('signup');
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Code' })).toBeDisabled();
    type('Email', 'not-an-email');
    click('Send Code');
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('keeps Send Code disabled for a whitespace e-mail and switches between modes', () => {
    stubFetch(signedOut);
    open('signin');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    type('Email', '   ');
    expect(screen.getByRole('button', { name: 'Send Code' })).toBeDisabled();
    click('Sign up');
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    click('Sign in');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('signs in: code step accepts 6 digits only, then reloads with a queued welcome toast', async () => {
    const { calls } = stubFetch({
      ...signedOut,
      'POST /api/auth/send-code': { body: { success: true, message: 'Code sent' } },
      'POST /api/auth/verify-code': { body: { success: true, message: 'Signed in' } },
    });
    const reload = open('signin');
    type('Email', '  Ada@Example.com ');
    click('Send Code');
    expect(await screen.findByRole('heading', { name: 'Enter Verification Code' })).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/auth/send-code')?.body).toEqual({ email: 'ada@example.com' });
    expect(screen.getByText('Verification code sent')).toBeInTheDocument();

    type('Verification code', '12a3-45');
    expect(screen.getByLabelText('Verification code')).toHaveValue('12345');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    type('Verification code', '1234567');
    expect(screen.getByLabelText('Verification code')).toHaveValue('123456');
    click('Sign In');
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(calls.find((c) => c.url === '/api/auth/verify-code')?.body).toEqual({ email: 'ada@example.com', code: '123456' });
    expect(JSON.parse(window.sessionStorage.getItem('radar-pending-toast') ?? '{}').title).toBe('Successfully signed in');
    expect(useAuthDialogStore.getState().isOpen).toBe(false);
  });

  it('after the code check asks for the session user first, and for /api/auth/user only when that found none', async () => {
    let signedIn = false;
    const { calls } = stubFetch({
      'GET /api/auth/session-user': () => ({ body: { user: signedIn ? makeUser({ email: 'ada@example.com' }) : null } }),
      'GET /api/auth/user': signedOut['GET /api/auth/user'],
      'POST /api/auth/send-code': { body: { success: true, message: 'Code sent' } },
      'POST /api/auth/verify-code': () => {
        signedIn = true;
        return { body: { success: true, message: 'Signed in' } };
      },
    });
    const reload = open('signin');
    // Page load while signed out: the session user, then (none found) the user.
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/auth/user')).toHaveLength(1));
    type('Email', 'ada@example.com');
    click('Send Code');
    await screen.findByLabelText('Verification code');
    type('Verification code', '123456');
    const before = calls.length;
    click('Sign In');
    await waitFor(() => expect(reload).toHaveBeenCalled());
    const after = calls.slice(before).map((c) => `${c.method} ${c.url}`);
    expect(after).toEqual(['POST /api/auth/verify-code', 'GET /api/auth/session-user']);
  });

  it('Back to email entry clears the code; Resend sends the code again', async () => {
    const { calls } = stubFetch({ ...signedOut, 'POST /api/auth/send-code': { body: { success: true, message: 'ok' } } });
    open('signin');
    type('Email', 'ada@example.com');
    click('Send Code');
    await screen.findByRole('heading', { name: 'Enter Verification Code' });
    click('Resend');
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/auth/send-code')).toHaveLength(2));
    type('Verification code', '123');
    click('Back to email entry');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    click('Send Code');
    await screen.findByRole('heading', { name: 'Enter Verification Code' });
    expect(screen.getByLabelText('Verification code')).toHaveValue('');
  });

  it('shows the server message when a call answers success false or an error body', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/auth/signup': { status: 409, body: { error: { name: 'ConflictError', message: 'An account with this e-mail already exists' } } },
      'POST /api/auth/send-code': { body: { success: false, message: 'Too many codes requested' } },
    });
    open('signup');
    type('First name', 'Ada');
    type('Last name', 'Lovelace');
    type('Email', 'ada@example.com');
    click('Send Code');
    expect(await screen.findByText('An account with this e-mail already exists')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Signup failed');
    click('Sign in');
    click('Send Code');
    expect(await screen.findByText('Too many codes requested')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Sign in failed');
  });

  it('uses the generic failure text when the network fails, and Verification failed for a bad code', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/auth/send-code': { body: { success: true, message: 'ok' } },
      'POST /api/auth/verify-code': { body: { success: false, message: 'Invalid or expired code' } },
    });
    open('signin');
    type('Email', 'ada@example.com');
    click('Send Code');
    await screen.findByRole('heading', { name: 'Enter Verification Code' });
    type('Verification code', '000000');
    click('Sign In');
    expect(await screen.findByText('Invalid or expired code')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Verification failed');

    (window.fetch as unknown as jest.Mock).mockImplementation(async () => {
      throw new TypeError('Failed to fetch');
    });
    click('Sign In');
    expect(await screen.findByText('An error occurred during verification. Please try again.')).toBeInTheDocument();
  });

  it('shows the fixed text for a server error (5xx), even when its body carries a message', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/auth/send-code': { status: 503, body: { error: { name: 'ServiceUnavailable', message: 'database is down' } } },
      'POST /api/auth/signup': { status: 500, body: { error: { name: 'Error', message: 'Internal error' } } },
    });
    open('signin');
    type('Email', 'ada@example.com');
    click('Send Code');
    expect(await screen.findByText('An error occurred during sign in. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Sign in failed');
    expect(screen.queryByText('database is down')).not.toBeInTheDocument();
    act(() => useToastStore.getState().dismiss());
    click('Sign up');
    type('First name', 'Ada');
    type('Last name', 'Lovelace');
    click('Send Code');
    expect(await screen.findByText('An error occurred during signup. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Signup failed');
  });

  it('closing resets to the e-mail step with empty fields', async () => {
    stubFetch({ ...signedOut, 'POST /api/auth/send-code': { body: { success: true, message: 'ok' } } });
    open('signin');
    type('Email', 'ada@example.com');
    click('Send Code');
    await screen.findByRole('heading', { name: 'Enter Verification Code' });
    click('Close');
    act(() => useAuthDialogStore.getState().open('signin'));
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });

  it('offers "Sign in with a passkey" where the browser has passkeys: the prompt, the server check, then a reload', async () => {
    const buffer = (text: string) => new TextEncoder().encode(text).buffer;
    const get = jest.fn(async () => ({
      id: 'cred-1',
      rawId: buffer('cred-1'),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: { clientDataJSON: buffer('{"challenge":"c"}'), authenticatorData: buffer('auth'), signature: buffer('sig'), userHandle: buffer('user') },
      getClientExtensionResults: () => ({}),
    }));
    Object.defineProperty(window, 'PublicKeyCredential', {
      configurable: true,
      value: Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => false }),
    });
    Object.defineProperty(navigator, 'credentials', { configurable: true, value: { get, create: jest.fn() } });
    try {
      const { calls } = stubFetch({
        ...signedOut,
        'POST /api/auth/passkeys/sign-in-options': { body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'preferred', timeout: 300000 } },
        'POST /api/auth/passkeys/sign-in': { body: { success: true, message: 'Signed in with your passkey' } },
      });
      const reload = open('signin');
      expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'email webauthn');
      fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
      await waitFor(() => expect(reload).toHaveBeenCalled());
      expect(get).toHaveBeenCalledTimes(1);
      const sent = calls.find((c) => c.url.endsWith('/api/auth/passkeys/sign-in'))?.body as { credential: Record<string, unknown> };
      expect(sent.credential).toMatchObject({ id: 'cred-1', type: 'public-key', response: { signature: Buffer.from('sig').toString('base64url') } });

      // A refused passkey says why; the code form stays.
      act(() => useAuthDialogStore.getState().open('signin'));
      stubFetch({
        ...signedOut,
        'POST /api/auth/passkeys/sign-in-options': { body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost' } },
        'POST /api/auth/passkeys/sign-in': {
          status: 401,
          body: { error: { name: 'AuthenticationError', message: 'This passkey is not registered here: sign in with a code, then add it on your profile' } },
        },
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('This passkey is not registered here');
      expect(screen.getByRole('button', { name: 'Send Code' })).toBeInTheDocument();
    } finally {
      delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
      delete (navigator as { credentials?: unknown }).credentials;
    }
  });

  describe('the passkey offer in autofill (conditional UI)', () => {
    const buffer = (text: string) => new TextEncoder().encode(text).buffer;
    const chosen = {
      id: 'cred-1',
      rawId: buffer('cred-1'),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: { clientDataJSON: buffer('{"challenge":"c"}'), authenticatorData: buffer('auth'), signature: buffer('sig'), userHandle: buffer('user') },
      getClientExtensionResults: () => ({}),
    };
    const options = { 'POST /api/auth/passkeys/sign-in-options': { body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost' } } };
    /** A browser that offers passkeys in autofill; `get` answers every request (autofill ones have mediation 'conditional'). */
    const browserWithAutofill = (get: (request: { mediation?: string }) => Promise<unknown>) => {
      const spy = jest.fn(get);
      Object.defineProperty(window, 'PublicKeyCredential', {
        configurable: true,
        value: Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => true }),
      });
      Object.defineProperty(navigator, 'credentials', { configurable: true, value: { get: spy, create: jest.fn() } });
      return spy;
    };
    /** Lets the offer's request settle, so a message it would show is on screen. */
    const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    afterEach(() => {
      delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
      delete (navigator as { credentials?: unknown }).credentials;
    });

    it.each([
      ['the browser refuses the request', () => Promise.reject(new DOMException('The operation is insecure.', 'SecurityError'))],
      ['the browser does not support it after all', () => Promise.reject(new DOMException('Not supported', 'NotSupportedError'))],
      ['the request is aborted', () => Promise.reject(new DOMException('The operation was aborted.', 'AbortError'))],
      ['the browser has no passkey (the request waits)', () => new Promise<never>(() => undefined)],
    ])('stays silent when %s before the person chose a passkey', async (_case, get) => {
      stubFetch({ ...signedOut, ...options });
      const spy = browserWithAutofill(get);
      open('signin');
      await waitFor(() => expect(spy).toHaveBeenCalledWith(expect.objectContaining({ mediation: 'conditional' })));
      await settle();
      expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.queryByText(/passkey could not be used/)).not.toBeInTheDocument();
    });

    it('stays silent when the offer cannot fetch its options', async () => {
      const { calls } = stubFetch({
        ...signedOut,
        'POST /api/auth/passkeys/sign-in-options': {
          status: 429,
          body: { error: { name: 'RateLimitError', message: 'Too many passkey sign-ins from this network' } },
        },
      });
      browserWithAutofill(() => new Promise<never>(() => undefined));
      open('signin');
      await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/auth/passkeys/sign-in-options'))).toBe(true));
      await settle();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });

    it('says why when a passkey picked from autofill is refused', async () => {
      stubFetch({
        ...signedOut,
        ...options,
        'POST /api/auth/passkeys/sign-in': {
          status: 401,
          body: { error: { name: 'AuthenticationError', message: 'This passkey is not registered here: sign in with a code, then add it on your profile' } },
        },
      });
      browserWithAutofill(async () => chosen);
      open('signin');
      expect(await screen.findByRole('alert')).toHaveTextContent('This passkey is not registered here');
    });

    it('says why when the person clicks "Sign in with a passkey" and the browser fails', async () => {
      stubFetch({ ...signedOut, ...options });
      browserWithAutofill((request) =>
        request.mediation === 'conditional' ? new Promise<never>(() => undefined) : Promise.reject(new DOMException('Broken', 'UnknownError')),
      );
      open('signin');
      await settle();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(/could not be used|Broken|unknown/i);
    });
  });
});
