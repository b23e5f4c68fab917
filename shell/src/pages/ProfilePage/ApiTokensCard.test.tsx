import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import type { ApiToken } from '@radar/contracts';
import { ApiTokensCard } from './ApiTokensCard.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const TOKEN = 'rdr_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
const existing: ApiToken = {
  id: 7,
  name: 'Feed reader',
  prefix: 'rdr_Qw12…',
  createdAt: '2026-01-10T08:00:00.000Z',
  lastUsedAt: '2026-01-12T09:30:00.000Z',
  lastUsedNetwork: '203.0.113.0/24',
  expiresAt: '2099-04-10T08:00:00.000Z',
  scope: 'read',
};

describe('ApiTokensCard', () => {
  it('creates a token, shows it once with Copy, and lists it', async () => {
    let tokens: ApiToken[] = [existing];
    const { calls } = stubFetch({
      'GET /api/tokens': () => ({ body: tokens }),
      'POST /api/tokens': (init) => {
        const { name, scope } = JSON.parse(String(init?.body));
        const made = { id: 8, name, createdAt: '2026-02-07T12:00:00.000Z', expiresAt: '2099-08-07T12:00:00.000Z', scope };
        tokens = [{ ...made, prefix: 'rdr_AbCd…', lastUsedAt: null, lastUsedNetwork: null }, ...tokens];
        return { status: 201, body: { ...made, token: TOKEN } };
      },
    });
    const writeText = jest.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderWithProviders(<ApiTokensCard />, { withAuthDialog: false });
    expect(await screen.findByText('Feed reader')).toBeInTheDocument();
    expect(screen.getByText(/rdr_Qw12… · Read · created Jan 10, 2026 · expires Apr 10, 2099 · last used .* from 203\.0\.113\.0\/24/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('Token name is required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'Claude Desktop' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'May' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Read and manage my subscriptions' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const field = await screen.findByLabelText('New API token');
    expect(field).toHaveValue(TOKEN);
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByText('Copy your new token “Claude Desktop” now: it will not be shown again.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Claude Desktop', expiresInDays: 90, scope: 'read_subscriptions' });
    expect(screen.getByText('Read and manage my subscriptions · expires Aug 7, 2099')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(TOKEN));
    expect(await screen.findByText('Token copied')).toBeInTheDocument();
    expect(await screen.findByText('Claude Desktop')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Done: hide the token' }));
    expect(screen.queryByLabelText('New API token')).not.toBeInTheDocument();
    expect(screen.queryByText(TOKEN)).not.toBeInTheDocument();
  });

  it('revokes a token after confirmation', async () => {
    let tokens = [existing];
    const { calls } = stubFetch({
      'GET /api/tokens': () => ({ body: tokens }),
      'DELETE /api/tokens/7': () => {
        tokens = [];
        return { body: { success: true, message: 'Token revoked' } };
      },
    });
    renderWithProviders(<ApiTokensCard />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke token Feed reader' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke “Feed reader”?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Revoke token Feed reader' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Token revoked')).toBeInTheDocument();
    expect(await screen.findByText('No API tokens yet')).toBeInTheDocument();
  });

  it('shows the server’s message when a token cannot be created', async () => {
    stubFetch({
      'GET /api/tokens': { body: [] },
      'POST /api/tokens': {
        status: 409,
        body: { error: { name: 'ConflictError', message: 'You already have 20 API tokens: revoke one you no longer use first' } },
      },
    });
    renderWithProviders(<ApiTokensCard />, { withAuthDialog: false });
    expect(await screen.findByText('No API tokens yet')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'One more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('You already have 20 API tokens: revoke one you no longer use first')).toBeInTheDocument();
  });

  it('asks an admin for their passkey when the server wants a recent check, then creates the token', async () => {
    const buffer = (text: string) => new TextEncoder().encode(text).buffer;
    const get = jest.fn(async () => ({
      id: 'Y3JlZA',
      rawId: buffer('cred'),
      type: 'public-key',
      response: { clientDataJSON: buffer('{}'), authenticatorData: buffer('auth'), signature: buffer('sig'), userHandle: buffer('user') },
      getClientExtensionResults: () => ({}),
    }));
    Object.defineProperty(window, 'PublicKeyCredential', { configurable: true, value: function PublicKeyCredential() {} });
    Object.defineProperty(navigator, 'credentials', { configurable: true, value: { create: jest.fn(), get } });
    let confirmed = false;
    const { calls } = stubFetch({
      'GET /api/tokens': { body: [] },
      'POST /api/tokens': () =>
        confirmed
          ? {
              status: 201,
              body: { id: 9, name: 'CI', createdAt: '2026-02-07T12:00:00.000Z', expiresAt: '2099-08-07T12:00:00.000Z', scope: 'read', token: TOKEN },
            }
          : {
              status: 403,
              body: { error: { name: 'ReauthenticationRequired', message: 'Confirm with your passkey to continue: this change needs a recent passkey check' } },
            },
      'POST /api/auth/passkeys/reauth-options': { body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' } },
      'POST /api/auth/passkeys/reauth': () => {
        confirmed = true;
        return { body: { success: true, message: 'Confirmed with your passkey' } };
      },
    });
    renderWithProviders(<ApiTokensCard />, { withAuthDialog: false });
    expect(await screen.findByText('No API tokens yet')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'CI' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Confirm with your passkey' })).getByRole('button', { name: 'Use passkey' }));
    expect(await screen.findByDisplayValue(TOKEN)).toBeInTheDocument();
    expect(get).toHaveBeenCalledTimes(1);
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/tokens'))).toHaveLength(2);
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
    delete (navigator as { credentials?: unknown }).credentials;
  });
});
