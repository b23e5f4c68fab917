import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { ApiTokensCard } from './ApiTokensCard.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const TOKEN = 'rdr_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
const existing = { id: 7, name: 'Feed reader', prefix: 'rdr_Qw12…', createdAt: '2026-01-10T08:00:00.000Z', lastUsedAt: null };

describe('ApiTokensCard', () => {
  it('creates a token, shows it once with Copy, and lists it', async () => {
    let tokens = [existing];
    const { calls } = stubFetch({
      'GET /api/tokens': () => ({ body: tokens }),
      'POST /api/tokens': (init) => {
        const { name } = JSON.parse(String(init?.body));
        tokens = [{ id: 8, name, prefix: 'rdr_AbCd…', createdAt: '2026-02-07T12:00:00.000Z', lastUsedAt: null }, ...tokens];
        return { status: 201, body: { id: 8, name, token: TOKEN, createdAt: '2026-02-07T12:00:00.000Z' } };
      },
    });
    const writeText = jest.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderWithProviders(<ApiTokensCard />, { withAuthDialog: false });
    expect(await screen.findByText('Feed reader')).toBeInTheDocument();
    expect(screen.getByText(/rdr_Qw12… · created Jan 10, 2026 · never used/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('Token name is required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'Claude Desktop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const field = await screen.findByLabelText('New API token');
    expect(field).toHaveValue(TOKEN);
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByText('Copy your new token “Claude Desktop” now: it will not be shown again.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Claude Desktop' });
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
});
