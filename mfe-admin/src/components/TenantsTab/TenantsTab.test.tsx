import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TenantRecord } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { TenantsTab } from './TenantsTab.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const DIRECTORY = '11111111-1111-4111-8111-111111111111';
const CLIENT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const never = { lastSyncAt: null, status: null, error: null, lastSuccessAt: null };
const tenant = (overrides: Partial<TenantRecord> = {}): TenantRecord => ({
  id: 1,
  name: 'Contoso',
  tenantId: DIRECTORY,
  clientId: CLIENT,
  cloud: 'worldwide',
  visibility: 'private',
  enabled: true,
  secretSet: true,
  secretExpiresOn: '2027-03-01',
  fromEnvironment: false,
  counts: { livePosts: 120, posts: 140, issues: 7 },
  serviceHealth: { at: '2026-03-05T14:30:00.000Z', services: 12, notOperational: [{ service: 'Exchange Online', status: 'serviceDegradation' }] },
  feeds: {
    messages: { lastSyncAt: '2026-03-05T14:30:00.000Z', status: 'failed', error: 'login.example answered HTTP 401', lastSuccessAt: null },
    health: never,
  },
  createdAt: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

let tenants: TenantRecord[];
function mount() {
  tenants = [
    tenant(),
    tenant({
      id: 2,
      name: 'Fabrikam',
      cloud: 'gcchigh',
      visibility: 'public',
      secretSet: false,
      secretExpiresOn: null,
      feeds: { messages: never, health: never },
    }),
  ];
  const stub = stubFetch({
    ...adminSession,
    'GET /api/admin/tenants': () => ({ body: tenants }),
    'POST /api/admin/tenants': (init) => {
      const body = JSON.parse(String(init?.body)) as { name: string; tenantId: string };
      if (body.name === 'Contoso') return { status: 409, body: { error: { name: 'ConflictError', message: 'A tenant named Contoso already exists' } } };
      const added = tenant({ id: 3, name: body.name, tenantId: body.tenantId, feeds: { messages: never, health: never } });
      tenants = [...tenants, added];
      return { status: 201, body: added };
    },
    'POST /api/admin/tenants/1/test': {
      body: {
        ok: false,
        message: 'Not ready: health',
        checks: [
          { name: 'token', ok: true, message: 'Signed in with the app.' },
          { name: 'messages', ok: true, message: 'Read Message Center.' },
          { name: 'health', ok: false, message: 'Missing ServiceHealth.Read.All: add it to the app as an application permission and grant admin consent.' },
        ],
      },
    },
    'GET /api/admin/tenants/1/usage': { body: { readAt: null, error: 'Forbidden', permissionMissing: true, workloads: [], trend: [] } },
    'POST /api/admin/tenants/1/sync': { body: { message: 'Contoso: Message Center sync finished: 2 new, 0 changed, 0 removed, 0 restored', runs: [] } },
    'DELETE /api/admin/tenants/2?deletePosts=true': () => {
      tenants = tenants.filter((t) => t.id !== 2);
      return { body: { success: true, message: 'Removed Fabrikam and 3 posts no other tenant received' } };
    },
  });
  renderWithProviders(<TenantsTab />);
  return stub;
}

const rowOf = async (name: string) => (await screen.findByRole('cell', { name })).closest('tr')!;

describe('TenantsTab', () => {
  it('lists each tenant with its cloud, visibility, secret, last sync, error and posts', async () => {
    mount();
    const contoso = within(await rowOf('Contoso'));
    expect(contoso.getByText(`${DIRECTORY} · Worldwide`)).toBeInTheDocument();
    expect(contoso.getByText('Private')).toBeInTheDocument();
    expect(contoso.getByText('Set, expires 2027-03-01')).toBeInTheDocument();
    expect(contoso.getByText('login.example answered HTTP 401')).toBeInTheDocument();
    expect(contoso.getByText('120 live of 140 · 7 health issues')).toBeInTheDocument();
    expect(contoso.getByText('Service Health: Not synced yet')).toBeInTheDocument();
    expect(contoso.getByText('Services: Exchange Online (service degradation)')).toBeInTheDocument();
    const fabrikam = within(await rowOf('Fabrikam'));
    expect(fabrikam.getByText(`${DIRECTORY} · GCC High`)).toBeInTheDocument();
    expect(fabrikam.getByText('Not set')).toBeInTheDocument();
    expect(fabrikam.getByText('Message Center: Not synced yet')).toBeInTheDocument();
  });

  it('shows what Test connection found, and syncs now', async () => {
    mount();
    fireEvent.click(within(await rowOf('Contoso')).getByRole('button', { name: 'Test connection of Contoso' }));
    const result = await screen.findByLabelText('Connection test of Contoso');
    expect(within(result).getByText(/Missing ServiceHealth\.Read\.All/)).toBeInTheDocument();
    fireEvent.click(within(await rowOf('Contoso')).getByRole('button', { name: 'Sync now: Contoso' }));
    expect(await screen.findByText('Contoso: Message Center sync finished: 2 new, 0 changed, 0 removed, 0 restored')).toBeInTheDocument();
  });

  it('adds a tenant: refuses bad fields with the API’s words, shows a conflict, then saves', async () => {
    const { calls } = mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Add tenant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a tenant' });
    const type = (label: RegExp, value: string) => fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    type(/^Name/, 'Contoso');
    type(/^Directory \(tenant\) ID/, 'not-a-tenant');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('tenantId must be a directory (tenant) id (a GUID) or a verified domain')).toBeInTheDocument();
    expect(within(dialog).getByText('clientId must be an application (client) id (a GUID)')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    type(/^Directory \(tenant\) ID/, 'contoso.onmicrosoft.com');
    type(/^Application \(client\) ID/, CLIENT);
    type(/^Client secret/, 'the-secret');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A tenant named Contoso already exists')).toBeInTheDocument();

    type(/^Name/, 'Northwind');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Tenant added')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await rowOf('Northwind')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/admin/tenants')).at(-1)?.body).toEqual({
      name: 'Northwind',
      tenantId: 'contoso.onmicrosoft.com',
      clientId: CLIENT,
      clientSecret: 'the-secret',
      secretExpiresOn: null,
      cloud: 'worldwide',
      visibility: 'private',
      enabled: true,
    });
  });

  it('removes a tenant after asking, with its posts when the admin says so', async () => {
    const { calls } = mount();
    fireEvent.click(within(await rowOf('Fabrikam')).getByRole('button', { name: 'Remove Fabrikam' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Fabrikam?' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Also delete the posts no other tenant received' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removed Fabrikam and 3 posts no other tenant received')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Fabrikam' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([expect.stringMatching(/\/api\/admin\/tenants\/2\?deletePosts=true$/)]);
  });
});

describe('Admin → Tenants with no tenant yet', () => {
  it('says what adding one does instead of a bare table header', async () => {
    stubFetch({ ...adminSession, 'GET /api/admin/tenants': { body: [] } });
    renderWithProviders(<TenantsTab />);
    expect(await screen.findByText(/^No tenant yet\. Add tenant connects one through its Entra app/)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Tenants' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add tenant' })).toBeInTheDocument();
  });
});

describe('Admin → Tenants: usage', () => {
  it('says on each row whether the usage is read, off for want of the permission, failing, or not read yet', async () => {
    const at = '2026-03-05T06:00:00.000Z';
    stubFetch({
      ...adminSession,
      'GET /api/admin/tenants': {
        body: [
          tenant({ id: 1, name: 'Contoso', usage: { state: 'read', readAt: at, error: null } }),
          tenant({
            id: 2,
            name: 'Fabrikam',
            usage: { state: 'permission_missing', readAt: null, error: 'Usage not readable: grant the app Reports.Read.All' },
          }),
          tenant({ id: 3, name: 'Northwind', usage: { state: 'failing', readAt: at, error: 'Usage not read: services user counts: HTTP 503' } }),
          tenant({ id: 4, name: 'Tailspin', usage: { state: 'never', readAt: null, error: null } }),
        ],
      },
    });
    renderWithProviders(<TenantsTab />);
    expect(within(await rowOf('Contoso')).getByText(/^Usage: read \S/)).toBeInTheDocument();
    expect(within(await rowOf('Fabrikam')).getByText('Usage: off, the app lacks Reports.Read.All (relevance says Unknown)')).toBeInTheDocument();
    const northwind = within(await rowOf('Northwind'));
    expect(northwind.getByText(/^Usage: the last read failed; counts of \S.* in use$/)).toBeInTheDocument();
    expect(northwind.getByText('Usage not read: services user counts: HTTP 503')).toBeInTheDocument();
    expect(within(await rowOf('Tailspin')).getByText('Usage: not read yet')).toBeInTheDocument();
  });

  it('opens a tenant’s usage from its row, asking for it only then', async () => {
    const { calls } = mount();
    const row = await rowOf('Contoso');
    expect(calls.some((c) => c.url.endsWith('/usage'))).toBe(false);
    fireEvent.click(within(row).getByRole('button', { name: 'Usage of Contoso' }));
    const dialog = await screen.findByRole('dialog', { name: 'Usage: Contoso' });
    expect(await within(dialog).findByText(/^Usage is not read: grant Reports\.Read\.All/)).toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/usage')).map((c) => c.url)).toEqual([expect.stringMatching(/\/api\/admin\/tenants\/1\/usage$/)]);
  });
});
