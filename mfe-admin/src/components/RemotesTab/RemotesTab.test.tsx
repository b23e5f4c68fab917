import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RemoteEntry } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { RemotesTab } from './RemotesTab.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const V2 = 'https://cdn.example.com/admin/0.2.0/mf-manifest.json';
let remotes: RemoteEntry[];

function mount() {
  remotes = [
    { name: 'dashboard', url: '/remotes/dashboard/mf-manifest.json', version: '0.1.0+abc', previousUrl: null, lastLoadedAt: '2026-03-05T14:30:00.000Z' },
    { name: 'admin', url: '/remotes/admin/mf-manifest.json', version: null, previousUrl: null, lastLoadedAt: null },
    { name: 'digest', url: V2.replace('admin', 'digest'), version: '0.2.0+def', previousUrl: '/remotes/digest/mf-manifest.json', lastLoadedAt: null },
  ];
  const stub = stubFetch({
    ...adminSession,
    'GET /api/admin/remotes': () => ({ body: remotes }),
    'PUT /api/admin/remotes/admin': (init) => {
      const { url } = JSON.parse(String(init?.body)) as { url: string };
      remotes[1] = { ...remotes[1]!, url, previousUrl: remotes[1]!.url, version: '0.2.0+fff' };
      return { body: remotes[1] };
    },
    'POST /api/admin/remotes/digest/rollback': () => {
      remotes[2] = { ...remotes[2]!, url: '/remotes/digest/mf-manifest.json', previousUrl: remotes[2]!.url };
      return { body: remotes[2] };
    },
    'POST /api/admin/remotes/admin/test': {
      body: {
        name: 'admin',
        url: V2,
        ok: false,
        reachable: true,
        version: '0.3.0+eee',
        compatible: false,
        mismatches: [{ library: '@radar/shared-ui', required: '^1.0.0', provided: '0.1.0' }],
        message: 'Incompatible: Admin 0.3.0+eee was built for @radar/shared-ui ^1.0.0 (this site has 0.1.0).',
      },
    },
  });
  renderWithProviders(<RemotesTab />);
  return stub;
}

const rowOf = async (label: string) => (await screen.findByRole('cell', { name: label })).closest('tr')!;

describe('RemotesTab', () => {
  it('lists each remote with its URL, version and last load', async () => {
    mount();
    const dashboard = within(await rowOf('Dashboard'));
    expect(dashboard.getByText('/remotes/dashboard/mf-manifest.json')).toBeInTheDocument();
    expect(dashboard.getByText('0.1.0+abc')).toBeInTheDocument();
    expect(dashboard.getByText('Mar 5, 2026', { exact: false })).toBeInTheDocument();
    expect(dashboard.getByRole('button', { name: 'Roll back Dashboard' })).toBeDisabled();
    const admin = within(await rowOf('Admin'));
    expect(admin.getByText('Unknown (manifest not readable)')).toBeInTheDocument();
    expect(admin.getByText('Not since the last change')).toBeInTheDocument();
  });

  it('changes a URL: refuses a plain-http host in the dialog, saves an https one and shows its version', async () => {
    const { calls } = mount();
    fireEvent.click(within(await rowOf('Admin')).getByRole('button', { name: 'Change URL of Admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the Admin URL' });
    const field = within(dialog).getByRole('textbox', { name: 'Manifest URL for Admin' });
    fireEvent.change(field, { target: { value: 'http://cdn.example.com/admin/mf-manifest.json' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('url must be https (http is allowed only for localhost and loopback addresses)')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    fireEvent.change(field, { target: { value: ` ${V2} ` } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Remote updated')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ url: V2 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(V2)).toBeInTheDocument();
    expect(within(await rowOf('Admin')).getByText('0.2.0+fff')).toBeInTheDocument();
  });

  it('rolls back to the previous URL in one click', async () => {
    mount();
    fireEvent.click(within(await rowOf('Weekly Digest')).getByRole('button', { name: 'Roll back Weekly Digest' }));
    expect(await screen.findByText('Remote rolled back')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Remotes' })).getByText('/remotes/digest/mf-manifest.json')).toBeInTheDocument());
  });

  it('Test shows what the server found, naming the mismatched library', async () => {
    mount();
    fireEvent.click(within(await rowOf('Admin')).getByRole('button', { name: 'Test Admin' }));
    const result = await screen.findByRole('alert', { name: 'Test result for Admin' });
    expect(result).toHaveTextContent('Incompatible: Admin 0.3.0+eee was built for @radar/shared-ui ^1.0.0 (this site has 0.1.0).');
  });
});
