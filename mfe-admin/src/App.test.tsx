import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import App from './App.js';

const signedOut = {
  'GET /api/auth/session-user': { body: { user: null } },
  'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Not signed in' } } },
};

function mount(route: string) {
  renderWithProviders(
    <Routes>
      <Route path="/admin/*" element={<App />} />
      <Route path="/test-moderator" element={<App />} />
    </Routes>,
    { route },
  );
}

describe('admin App routes', () => {
  it('shows the admin dashboard under /admin', async () => {
    stubFetch(signedOut);
    mount('/admin');
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    // Signed out: the roles call answers 404 from the stub (401 from the server), which denies access.
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
  });

  it('shows only the impersonation page at /test-moderator', () => {
    stubFetch(signedOut);
    mount('/test-moderator');
    expect(screen.getByRole('heading', { name: 'Role Impersonation' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
  });

  it('shows the 404 page for an unknown sub-path of /admin', async () => {
    stubFetch(signedOut);
    mount('/admin/unknown');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
  });
});
