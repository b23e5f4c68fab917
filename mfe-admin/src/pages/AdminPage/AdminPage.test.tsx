import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession, roles } from '../../test-utils/fixtures.js';
import { AdminPage } from './AdminPage.js';

function mount(route = '/admin') {
  renderWithProviders(
    <Routes>
      <Route path="/admin" element={<AdminPage />} />
      <Route path="/dashboard" element={<p>dashboard page</p>} />
      <Route path="/contact" element={<p>contact page</p>} />
    </Routes>,
    { route },
  );
}

describe('AdminPage access check', () => {
  it("shows 'Checking Permissions' while the roles call runs, then the tabs", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    stubFetch({ ...adminSession, 'GET /api/admin/roles': { body: roles }, 'GET /api/admin/sync-history': { body: { syncHistory: [] } } });
    const stubbed = window.fetch;
    window.fetch = (async (...args: Parameters<typeof fetch>) => {
      if (String(args[0]).endsWith('/api/admin/roles')) await gate;
      return stubbed(...args);
    }) as typeof fetch;
    mount();
    expect(screen.getByText('Checking Permissions')).toBeInTheDocument();
    expect(screen.getByText('Verifying admin access...')).toBeInTheDocument();
    release();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      'Sync History',
      'Change History',
      'Users',
      'Tenants',
      'Products',
      'Triage',
      'Trackers',
      'Contact Forms',
      'Digest',
      'Analytics',
      'AI Summary',
      'Activity',
      'Remotes',
    ]);
    expect(screen.queryByText('Checking Permissions')).not.toBeInTheDocument();
    expect(await screen.findByText('No syncs have run yet.')).toBeInTheDocument();
  });

  it('denies access when the roles call fails, without retrying, and links to the dashboard', async () => {
    const { calls } = stubFetch({ 'GET /api/admin/roles': { status: 403, body: { error: { name: 'ForbiddenError', message: 'Admin only' } } } });
    mount();
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/api/admin/roles'))).toHaveLength(1);
    fireEvent.click(screen.getByRole('link', { name: 'Go to Dashboard' }));
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
  });

  it('offers Clear impersonation on Access Denied while an admin impersonates a lesser role, and lets them back in', async () => {
    let impersonating = true;
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/roles': () => (impersonating ? { status: 403, body: { error: { name: 'ForbiddenError', message: 'Admin only' } } } : { body: roles }),
      'GET /api/dev/current-impersonation': () => ({ body: { isImpersonating: impersonating, impersonatedRole: impersonating ? 'User' : null } }),
      'DELETE /api/dev/clear-impersonation': () => {
        impersonating = false;
        return { body: { message: 'Impersonation cleared' } };
      },
      'GET /api/admin/sync-history': { body: { syncHistory: [] } },
    });
    mount();
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(await screen.findByText('You are impersonating the User role.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear impersonation' }));
    expect(await screen.findByRole('tab', { name: 'Sync History' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/dev/clear-impersonation')).toBe(true);
  });

  it('shows no Clear impersonation when nobody impersonates', async () => {
    stubFetch({
      'GET /api/admin/roles': { status: 403, body: { error: { name: 'ForbiddenError', message: 'Admin only' } } },
      'GET /api/dev/current-impersonation': { status: 403, body: { error: { name: 'ForbiddenError', message: 'Admin only' } } },
    });
    mount();
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear impersonation' })).not.toBeInTheDocument();
  });

  it('Request Access goes to /contact', async () => {
    stubFetch({ 'GET /api/admin/roles': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Not signed in' } } } });
    mount();
    fireEvent.click(await screen.findByRole('link', { name: 'Request Access' }));
    expect(await screen.findByText('contact page')).toBeInTheDocument();
  });

  it('opens the tab named in ?tab= and switches tabs', async () => {
    stubFetch({
      ...adminSession,
      'GET /api/admin/roles': { body: roles },
      'GET /api/admin/contact-submissions': { body: [] },
      'GET /api/admin/product-mappings': { body: [] },
    });
    mount('/admin?tab=contact');
    expect(await screen.findByText('No contact submissions yet.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Contact Forms' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.click(screen.getByRole('tab', { name: 'Products' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Products' })).toHaveAttribute('aria-selected', 'true'));
    expect(await screen.findByRole('button', { name: 'Initialize Mappings' })).toBeInTheDocument();
  });

  it('keeps ?tab=triage-rules for the Triage tab: the starting lines above the rules', async () => {
    stubFetch({
      ...adminSession,
      'GET /api/admin/roles': { body: roles },
      'GET /api/triage/start': {
        body: {
          settings: { startWindowDays: 30, openUpcomingRoadmap: false },
          lines: [{ tenantId: 3, tenantName: 'Contoso', from: '2026-11-01', open: 4, closedBeforeTracking: 2 }],
        },
      },
      'GET /api/triage-rules': { body: { rules: [] } },
    });
    mount('/admin?tab=triage-rules');
    expect(await screen.findByRole('tab', { name: 'Triage' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'Starting line' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Starting lines' })).toBeInTheDocument();
    expect(await screen.findByText('No triage rules yet.')).toBeInTheDocument();
  });
});
