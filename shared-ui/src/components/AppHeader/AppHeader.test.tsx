import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../test/render.js';
import { makeUser, stubFetch } from '../../test/fetch-stub.js';
import { setViewportWidth } from '../../test/viewport.js';
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

  it('below the md breakpoint the page actions and Export fold into one "More actions" menu', async () => {
    stubFetch(guest);
    setViewportWidth(390);
    const onExport = jest.fn();
    const onSubscribe = jest.fn();
    renderWithProviders(
      <AppHeader
        exportAction={{ onExport, isExporting: false }}
        pageActions={[{ key: 'subscribe', label: 'Subscribe', hasPopup: true, onSelect: onSubscribe }]}
      />,
      { withAuthDialog: false },
    );
    expect(screen.queryByRole('button', { name: 'Export' })).not.toBeInTheDocument();
    const more = screen.getByRole('button', { name: 'More actions' });
    fireEvent.click(more);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Subscribe' }));
    // A menu the action opens anchors where the actions were chosen from.
    expect(onSubscribe).toHaveBeenCalledWith(more);
    fireEvent.click(more);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Export' }));
    expect(onExport).toHaveBeenCalledTimes(1);
  });

  it('on wide screens the page actions are buttons before Export', () => {
    stubFetch(guest);
    const onSelect = jest.fn();
    renderWithProviders(<AppHeader exportAction={{ onExport: jest.fn(), isExporting: true }} pageActions={[{ key: 's', label: 'Save search', onSelect }]} />, {
      withAuthDialog: false,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    expect(onSelect).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Exporting...' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'More actions' })).not.toBeInTheDocument();
  });
});
