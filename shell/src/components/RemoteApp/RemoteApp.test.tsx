import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { RemoteIncompatibleError } from '../../federation/compat.js';
import { RemoteApp } from './RemoteApp.js';

function Dashboard() {
  return <h1>Remote dashboard</h1>;
}

describe('RemoteApp', () => {
  it('shows a loading state, then the remote', async () => {
    let resolve: (value: { default: ComponentType }) => void = () => undefined;
    const load = jest.fn(() => new Promise<{ default: ComponentType }>((r) => (resolve = r)));
    render(<RemoteApp remote="dashboard" load={load} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading Dashboard...');
    resolve({ default: Dashboard });
    expect(await screen.findByRole('heading', { name: 'Remote dashboard' })).toBeInTheDocument();
  });

  it('contains a failed load with Retry, and Retry loads again with a fresh attempt', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = jest
      .fn<() => Promise<{ default: ComponentType }>>()
      .mockRejectedValueOnce(new Error('ScriptNetworkError'))
      .mockResolvedValueOnce({ default: Dashboard });
    render(<RemoteApp remote="dashboard" load={load} />);
    expect(await screen.findByText('Dashboard is unavailable')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Remote dashboard' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    consoleError.mockRestore();
  });

  it('names the shared library an incompatible build needs, contained to the page', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const mismatch = { library: '@radar/shared-ui', required: '^1.0.0', provided: '0.1.0' };
    const load = async () =>
      Promise.reject(new RemoteIncompatibleError('Admin 0.3.0+abc was built for @radar/shared-ui ^1.0.0 (this site has 0.1.0).', [mismatch]));
    render(<RemoteApp remote="admin" load={load} />);
    expect(await screen.findByText('Admin is unavailable')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Admin 0.3.0+abc was built for @radar/shared-ui ^1.0.0 (this site has 0.1.0).');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('offers an admin to roll the broken remote back, and says why when there is nothing to roll back to', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer = { status: 409, body: { error: { name: 'ConflictError', message: 'Admin has no previous URL to roll back to' } } };
    const { calls } = stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser({ id: 1, email: 'admin@example.com', roles: [{ id: 1, name: 'Admin' }] }) } },
      'POST /api/admin/remotes/admin/rollback': () => answer,
    });
    const rolledBack = jest.fn();
    renderWithProviders(<RemoteApp remote="admin" onRolledBack={rolledBack} load={async () => Promise.reject(new Error('down'))} />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Roll back Admin' }));
    expect(await screen.findByText('Admin has no previous URL to roll back to')).toBeInTheDocument();
    answer = {
      status: 200,
      body: {
        name: 'admin',
        url: '/remotes/admin/mf-manifest.json',
        version: null,
        previousUrl: 'https://cdn.example.com/mf-manifest.json',
        lastLoadedAt: null,
      },
    } as never;
    fireEvent.click(screen.getByRole('button', { name: 'Roll back Admin' }));
    await waitFor(() => expect(rolledBack).toHaveBeenCalledTimes(1));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2);
    consoleError.mockRestore();
  });

  it('offers no rollback to a visitor', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetch({ 'GET /api/auth/session-user': { body: { user: null } }, 'GET /api/auth/user': { status: 401 } });
    renderWithProviders(<RemoteApp remote="admin" load={async () => Promise.reject(new Error('down'))} />, { withAuthDialog: false });
    expect(await screen.findByText('Admin is unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Roll back Admin' })).not.toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('contains a remote that throws while rendering', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(): never {
      throw new Error('render failure');
    }
    render(<RemoteApp remote="digest" load={async () => ({ default: Broken })} />);
    expect(await screen.findByText('Weekly Digest is unavailable')).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('keeps a header for a remote that renders its own (the dashboard) while it is down', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetch({ 'GET /api/auth/session-user': { body: { user: null } }, 'GET /api/auth/user': { status: 401 } });
    renderWithProviders(<RemoteApp remote="dashboard" ownsHeader load={async () => Promise.reject(new Error('down'))} />, { withAuthDialog: false });
    expect(await screen.findByText('Dashboard is unavailable')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'M365 Radar home' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Weekly Digest' })).toHaveAttribute('href', '/weekly-digest');
    consoleError.mockRestore();
  });

  it('does not carry an error over to another remote rendered in the same place', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = jest.fn(async (key: string) => {
      if (key === 'dashboard') throw new Error('down');
      return { default: () => <h1>Digest page</h1> };
    });
    const { rerender } = render(<RemoteApp remote="dashboard" load={load} />);
    expect(await screen.findByText('Dashboard is unavailable')).toBeInTheDocument();
    rerender(<RemoteApp remote="digest" load={load} />);
    expect(await screen.findByRole('heading', { name: 'Digest page' })).toBeInTheDocument();
    consoleError.mockRestore();
  });
});
