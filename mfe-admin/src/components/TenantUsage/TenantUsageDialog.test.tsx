import { beforeAll, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { TenantUsageResponse } from '@radar/contracts';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { TenantUsageDialog } from './TenantUsageDialog.js';
import { shareText, trendRows, usageState } from './usage-text.js';

// recharts' ResponsiveContainer measures with ResizeObserver, which jsdom lacks.
beforeAll(() => {
  Object.assign(window, {
    ResizeObserver: class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  });
});

const usage = (over: Partial<TenantUsageResponse> = {}): TenantUsageResponse => ({
  readAt: '2026-11-28T05:00:00.000Z',
  error: null,
  permissionMissing: false,
  workloads: [
    { workload: 'teams', label: 'Teams', reportDate: '2026-11-26', periodDays: 30, activeUsers: 1240, licensedUsers: 1500, share: 1240 / 1500 },
    { workload: 'word', label: 'Word', reportDate: '2026-11-26', periodDays: 1, activeUsers: 320, licensedUsers: null, share: null },
  ],
  trend: [
    { date: '2026-11-25', workload: 'teams', activeUsers: 1200 },
    { date: '2026-11-26', workload: 'teams', activeUsers: 1240 },
    { date: '2026-11-26', workload: 'word', activeUsers: 320 },
  ],
  ...over,
});

const open = (answer: TenantUsageResponse | { status: number; body: unknown }) => {
  stubFetch({ ...adminSession, 'GET /api/admin/tenants/1/usage': 'status' in answer ? answer : { body: answer } });
  renderWithProviders(<TenantUsageDialog payload={{ id: 1, name: 'Contoso' }} open onClose={() => undefined} />);
  return screen.getByRole('dialog', { name: 'Usage: Contoso' });
};

describe('tenant usage dialog', () => {
  it('lists each workload with its active users, window, licensed count, share and day', async () => {
    const dialog = open(usage());
    const table = await within(dialog).findByRole('table', { name: 'Active users per workload' });
    const teams = within(table).getByRole('row', { name: /^Teams/ });
    expect(teams).toHaveTextContent('Teams1,240in the last 30 days1,50082 %Nov 26, 2026');
    expect(within(table).getByRole('row', { name: /^Word/ })).toHaveTextContent('Word320on the latest day reported——Nov 26, 2026');
    expect(within(dialog).getByText(/^Usage reports last read /)).toBeInTheDocument();
  });

  it('draws the trend of the last 90 days as a chart named by its last day', async () => {
    const dialog = open(usage());
    expect(await within(dialog).findByRole('img', { name: /from 2026-11-25 to 2026-11-26; on 2026-11-26: Teams 1,240$/ })).toBeInTheDocument();
  });

  it('shows the apps’ daily counts on request', async () => {
    const dialog = open(usage());
    await within(dialog).findByRole('img', { name: /Teams 1,240/ });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Show' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Microsoft 365 apps (active that day)' }));
    expect(await within(dialog).findByRole('img', { name: /on 2026-11-26: Word 320$/ })).toBeInTheDocument();
  });

  it('says plainly when the permission is missing, and that only relevance needs it', async () => {
    const dialog = open(usage({ permissionMissing: true, error: 'Forbidden', readAt: null, workloads: [], trend: [] }));
    const line = await within(dialog).findByRole('alert');
    expect(line).toHaveTextContent(/^Usage is not read: grant Reports\.Read\.All to the tenant's app .* Only relevance needs it/);
    expect(within(dialog).queryByRole('img')).not.toBeInTheDocument();
  });

  it('says why the last read failed', async () => {
    const dialog = open(usage({ error: 'reports.example answered HTTP 503' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The last read of the usage reports failed: reports.example answered HTTP 503');
  });

  it('says when the usage was never read', async () => {
    const dialog = open(usage({ readAt: null, workloads: [], trend: [] }));
    expect(await within(dialog).findByText("Not read yet: the usage reports are read once a day with the tenant's sync.")).toBeInTheDocument();
  });

  it('shows the server’s reason when loading fails', async () => {
    const dialog = open({ status: 500, body: { error: { name: 'Error', message: 'The database is busy' } } });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Could not load the usage/);
  });
});

describe('usage texts', () => {
  it('rounds the share down, says under 1 % and more than licensed', () => {
    expect(shareText({ share: 0.4996, activeUsers: 4996 })).toBe('49 %');
    expect(shareText({ share: 0.003, activeUsers: 3 })).toBe('under 1 %');
    expect(shareText({ share: 0, activeUsers: 0 })).toBe('0 %');
    expect(shareText({ share: 1.2, activeUsers: 120 })).toBe('more than licensed');
    expect(shareText({ share: null, activeUsers: 12 })).toBe('—');
  });

  it('puts the permission before a read error', () => {
    expect(usageState({ permissionMissing: true, error: 'Forbidden', readAt: null }).kind).toBe('permission');
    expect(usageState({ permissionMissing: false, error: 'HTTP 503', readAt: '2026-11-28T05:00:00.000Z' }).kind).toBe('failed');
    expect(usageState({ permissionMissing: false, error: null, readAt: '2026-11-28T05:00:00.000Z' }).kind).toBe('read');
  });

  it('pivots the trend to one row per day, oldest first, of the workloads asked', () => {
    expect(trendRows(usage().trend.toReversed(), ['teams'])).toEqual([
      { date: '2026-11-25', teams: 1200 },
      { date: '2026-11-26', teams: 1240 },
    ]);
  });
});
