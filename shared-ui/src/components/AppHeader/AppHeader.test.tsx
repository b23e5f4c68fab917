import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../test/render.js';
import { makeUser, stubFetch } from '../../test/fetch-stub.js';
import { AppHeader } from './AppHeader.js';

const guest = {
  'GET /api/auth/session-user': { body: { user: null } },
  'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'x' } } },
};

describe('AppHeader', () => {
  it('links the logo home and shows the three main links; no Export without an action', () => {
    stubFetch(guest);
    renderWithProviders(<AppHeader />, { withAuthDialog: false });
    expect(screen.getByRole('link', { name: 'M365 Radar home' })).toHaveAttribute('href', '/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/dashboard'],
      ['Weekly Digest', '/weekly-digest'],
      ['About Us', '/contact'],
    ]);
    expect(screen.queryByRole('button', { name: /Export/ })).not.toBeInTheDocument();
  });

  it('shows the Export action, disabled while an export runs', () => {
    stubFetch(guest);
    const onExport = jest.fn();
    const { unmount } = renderWithProviders(<AppHeader exportAction={{ onExport, isExporting: false }} />, { withAuthDialog: false });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(onExport).toHaveBeenCalledTimes(1);
    unmount();
    renderWithProviders(<AppHeader exportAction={{ onExport, isExporting: true }} />, { withAuthDialog: false });
    expect(screen.getByRole('button', { name: 'Exporting...' })).toBeDisabled();
  });

  it('mobile drawer: the main links, and Sign Out to /api/logout for signed-in users', async () => {
    stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser() } } });
    renderWithProviders(<AppHeader />, { withAuthDialog: false });
    await screen.findByRole('button', { name: /^Account menu/ });
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(drawer).getByRole('link', { name: 'Weekly Digest' })).toHaveAttribute('href', '/weekly-digest');
    expect(within(drawer).getByRole('link', { name: 'Sign Out' })).toHaveAttribute('href', '/api/logout');
  });
});
