import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Passkey } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { PasskeysCard } from './PasskeysCard.js';

afterEach(() => {
  useToastStore.setState({ toasts: [] });
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  delete (navigator as { credentials?: unknown }).credentials;
});

const key = (overrides: Partial<Passkey>): Passkey => ({
  id: 1,
  name: 'Laptop',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastUsedAt: null,
  synced: true,
  ...overrides,
});

describe('PasskeysCard', () => {
  it('lists passkeys, adds one with the browser’s prompt, renames and removes one', async () => {
    const buffer = (text: string) => new TextEncoder().encode(text).buffer;
    const create = jest.fn(async () => ({
      id: 'new-cred',
      rawId: buffer('new-cred'),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: buffer('{}'),
        attestationObject: buffer('att'),
        getTransports: () => ['internal'],
        getPublicKey: () => null,
        getPublicKeyAlgorithm: () => -7,
        getAuthenticatorData: () => buffer('auth'),
      },
      getClientExtensionResults: () => ({}),
    }));
    Object.defineProperty(window, 'PublicKeyCredential', {
      configurable: true,
      value: Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => false }),
    });
    Object.defineProperty(navigator, 'credentials', { configurable: true, value: { create, get: jest.fn() } });
    let list = [key({ lastUsedAt: '2026-11-25T09:00:00.000Z' })];
    const { calls } = stubFetch({
      'GET /api/auth/passkeys': () => ({ body: list }),
      'POST /api/auth/passkeys/registration-options': {
        body: {
          challenge: 'Y2hhbGxlbmdl',
          rp: { name: 'M365 Radar', id: 'localhost' },
          user: { id: 'dXNlcg', name: 'pat@example.com', displayName: 'Pat' },
          pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
        },
      },
      'POST /api/auth/passkeys': (init) => {
        const added = key({ id: 2, name: String(JSON.parse(String(init?.body)).name), synced: false });
        list = [...list, added];
        return { status: 201, body: added };
      },
      'PATCH /api/auth/passkeys/1': (init) => {
        list = [key({ name: String(JSON.parse(String(init?.body)).name) }), ...list.slice(1)];
        return { body: list[0] };
      },
      'DELETE /api/auth/passkeys/2': () => {
        list = list.filter((p) => p.id !== 2);
        return { body: { success: true, message: 'Passkey removed' } };
      },
    });
    renderWithProviders(<PasskeysCard />, { withAuthDialog: false });
    const shown = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(within(shown).getByText('Synced')).toBeInTheDocument();
    expect(within(shown).getByText(/last used/)).toBeInTheDocument();

    fireEvent.change(await screen.findByLabelText('Name of the new passkey'), { target: { value: 'Security key' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Security key now signs you in.')).toBeInTheDocument();
    expect(create).toHaveBeenCalledTimes(1);
    expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/auth/passkeys'))?.body).toMatchObject({
      name: 'Security key',
      credential: { id: 'new-cred', type: 'public-key', response: { attestationObject: Buffer.from('att').toString('base64url') } },
    });
    expect(await screen.findByText('Security key')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Rename passkey Laptop' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the name of Laptop' }));
    expect(await screen.findByText('name is required')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Work laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the name of Laptop' }));
    expect(await screen.findByText('Work laptop')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Remove passkey Security key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your passkeys' })).queryByText('Security key')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/auth/passkeys/2'))).toBe(true);
  });

  it('asks for the passkey when removing one needs a recent check, then removes it', async () => {
    const buffer = (text: string) => new TextEncoder().encode(text).buffer;
    const get = jest.fn(async () => ({
      id: 'Y3JlZA',
      rawId: buffer('cred'),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: { clientDataJSON: buffer('{}'), authenticatorData: buffer('auth'), signature: buffer('sig'), userHandle: buffer('user') },
      getClientExtensionResults: () => ({}),
    }));
    Object.defineProperty(window, 'PublicKeyCredential', {
      configurable: true,
      value: Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => false }),
    });
    Object.defineProperty(navigator, 'credentials', { configurable: true, value: { create: jest.fn(), get } });
    let confirmed = false;
    let list = [key({}), key({ id: 2, name: 'Old phone' })];
    const { calls } = stubFetch({
      'GET /api/auth/passkeys': () => ({ body: list }),
      'DELETE /api/auth/passkeys/2': () => {
        if (!confirmed) {
          return {
            status: 403,
            body: { error: { name: 'ReauthenticationRequired', message: 'Confirm with your passkey to continue: this change needs a recent passkey check' } },
          };
        }
        list = list.filter((p) => p.id !== 2);
        return { body: { success: true, message: 'Passkey removed: it no longer signs you in' } };
      },
      'POST /api/auth/passkeys/reauth-options': {
        body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }], userVerification: 'required' },
      },
      'POST /api/auth/passkeys/reauth': () => {
        confirmed = true;
        return { body: { success: true, message: 'Confirmed with your passkey' } };
      },
    });
    renderWithProviders(<PasskeysCard />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove passkey Old phone' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Remove this passkey?' })).getByRole('button', { name: 'Remove' }));

    const ask = await screen.findByRole('dialog', { name: 'Confirm with your passkey' });
    expect(within(ask).getByText('Confirm with your passkey to continue: this change needs a recent passkey check')).toBeInTheDocument();
    expect(get).not.toHaveBeenCalled();
    fireEvent.click(within(ask).getByRole('button', { name: 'Use passkey' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your passkeys' })).queryByText('Old phone')).not.toBeInTheDocument());
    expect(get).toHaveBeenCalledTimes(1);
    expect(calls.find((c) => c.url.endsWith('/api/auth/passkeys/reauth'))?.body).toMatchObject({ credential: { id: 'Y3JlZA', type: 'public-key' } });
    expect(calls.filter((c) => c.method === 'DELETE').length).toBe(2);
    expect(await screen.findByText('Passkey removed')).toBeInTheDocument();
  });

  it('does nothing when the user declines to confirm with a passkey', async () => {
    const { calls } = stubFetch({
      'GET /api/auth/passkeys': { body: [key({})] },
      'DELETE /api/auth/passkeys/1': {
        status: 403,
        body: { error: { name: 'ReauthenticationRequired', message: 'Confirm with your passkey to continue: this change needs a recent passkey check' } },
      },
    });
    renderWithProviders(<PasskeysCard />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove passkey Laptop' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Remove this passkey?' })).getByRole('button', { name: 'Remove' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Confirm with your passkey' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE').length).toBe(1);
    expect(calls.some((c) => c.url.endsWith('/reauth-options'))).toBe(false);
    expect(screen.queryByText('Passkey not removed')).not.toBeInTheDocument();
    expect(screen.getByText('Laptop')).toBeInTheDocument();
  });
});
