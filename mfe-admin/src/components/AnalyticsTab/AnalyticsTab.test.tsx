import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, setViewportWidth, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { AnalyticsTab } from './AnalyticsTab.js';
import { tickLines } from './ProductBreakdownChart.js';

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

const breakdown = Array.from({ length: 14 }, (_, i) => ({ product: `Product ${i + 1}`, total: 100 - i, roadmapCount: 60 - i, messageCenterCount: 40 }));

describe('AnalyticsTab', () => {
  it('shows the top 12 products as a table and a chart', async () => {
    stubFetch({ ...adminSession, 'GET /api/admin/current-status-analytics': { body: { productBreakdown: breakdown } } });
    renderWithProviders(<AnalyticsTab />);
    const table = await screen.findByRole('table', { name: 'Product breakdown' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(rows[0]).toHaveTextContent('Product 11006040');
    expect(within(table).queryByText('Product 13')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Bar chart of items per product: Product 1 100/ })).toBeInTheDocument();
  });

  it('draws one column per product on wide screens and a horizontal bar per product on a phone', async () => {
    stubFetch({ ...adminSession, 'GET /api/admin/current-status-analytics': { body: { productBreakdown: breakdown } } });
    const { unmount } = renderWithProviders(<AnalyticsTab />);
    expect(await screen.findByRole('img', { name: /Bar chart/ })).toHaveAttribute('data-layout', 'columns');
    unmount();
    setViewportWidth(390);
    renderWithProviders(<AnalyticsTab />);
    expect(await screen.findByRole('img', { name: /Bar chart/ })).toHaveAttribute('data-layout', 'horizontal-bars');
  });

  it('wraps a long product name into two lines and cuts the rest (the whole name is the tick title)', () => {
    expect(tickLines('Microsoft Copilot (Microsoft 365)')).toEqual(['Microsoft', 'Copilot (Micr…']);
    expect(tickLines('Microsoft Teams')).toEqual(['Microsoft', 'Teams']);
    expect(tickLines('Planner')).toEqual(['Planner']);
    expect(tickLines('SharePoint Online')).toEqual(['SharePoint', 'Online']);
    expect(tickLines('Finance and Operations Apps')).toEqual(['Finance and', 'Operations Ap…']);
  });

  it('says so when there is nothing to show', async () => {
    stubFetch({ ...adminSession, 'GET /api/admin/current-status-analytics': { body: { productBreakdown: [] } } });
    renderWithProviders(<AnalyticsTab />);
    expect(await screen.findByText('No products to show yet.')).toBeInTheDocument();
  });
});

describe('Triage chart', () => {
  it('draws open, overdue and done per day for all tenants, and asks for the tenant chosen', async () => {
    const warned = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const days = [
      { date: '2026-11-24', open: 40, overdue: 3, done: 10, notRelevant: 5, score: 71 },
      { date: '2026-11-25', open: 38, overdue: 4, done: 13, notRelevant: 5, score: 74 },
    ];
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/current-status-analytics': { body: { productBreakdown: [] } },
      'GET /api/triage/analytics': (_init, url) => ({ body: { tenants: [{ id: 7, name: 'Contoso' }], days: url.includes('tenant=7') ? [] : days } }),
      'GET /api/triage/health': { body: { score: 74, open: 38, costs: [], trend: [] } },
    });
    renderWithProviders(<AnalyticsTab />);
    expect(await screen.findByRole('img', { name: /on 2026-11-25: 38 open, 4 overdue, 13 done/ })).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Tenant' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Contoso' }));
    expect(await screen.findByText('Triage is counted once a day: the chart fills from the first count.')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/api/triage/analytics?tenant=7');
    // The menu kept its tenants while Contoso's days loaded: the choice shows, and no out-of-range value was warned of.
    expect(screen.getByRole('combobox', { name: 'Tenant' })).toHaveTextContent('Contoso');
    expect(warned.mock.calls.flat().join(' ')).not.toMatch(/out-of-range value/);
  });

  it("shows the change-health score per day (days before the score are gaps) and today's figure of the tenant chosen", async () => {
    const days = [
      { date: '2026-11-23', open: 41, overdue: 3, done: 9, notRelevant: 5, score: null },
      { date: '2026-11-24', open: 40, overdue: 3, done: 10, notRelevant: 5, score: 71 },
      { date: '2026-11-25', open: 38, overdue: 4, done: 13, notRelevant: 5, score: 74 },
    ];
    const contoso = {
      score: 42,
      open: 9,
      costs: [
        { kind: 'overdue', label: 'Overdue', records: 4, points: 33 },
        { kind: 'unowned', label: 'Nobody owns them', records: 1, points: 25 },
      ],
      trend: [{ date: '2026-11-25', score: 42 }],
    };
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/current-status-analytics': { body: { productBreakdown: [] } },
      'GET /api/triage/analytics': (_init, url) => ({
        body: { tenants: [{ id: 7, name: 'Contoso' }], days: url.includes('tenant=7') ? days.map((d) => ({ ...d, score: d.score && 42 })) : days },
      }),
      'GET /api/triage/health': (_init, url) => ({ body: url.endsWith('tenant=7') ? contoso : { score: 74, open: 38, costs: [], trend: [] } }),
    });
    renderWithProviders(<AnalyticsTab />);
    expect(await screen.findByRole('heading', { name: 'Change health today: 74/100' })).toBeInTheDocument();
    expect(screen.getByText('Nothing costs points')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Change health (0–100)' })).toBeInTheDocument();
    expect(
      await screen.findByRole('img', {
        name: 'Line chart of the change-health score per day from 2026-11-24 to 2026-11-25 (no score before 2026-11-24); on 2026-11-25: 74/100',
      }),
    ).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/api/triage/health?tenant=all');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Tenant' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Contoso' }));
    expect(await screen.findByRole('heading', { name: 'Change health today: 42/100' })).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/api/triage/health?tenant=7');
    const costs = within(screen.getByRole('list', { name: 'What costs points' })).getAllByRole('listitem');
    expect(costs.map((li) => li.textContent)).toEqual(['Overdue · 4 items · −33 points', 'Nobody owns them · 1 item · −25 points']);
    expect(
      await screen.findByRole('img', { name: /from 2026-11-24 to 2026-11-25 \(no score before 2026-11-24\); on 2026-11-25: 42\/100$/ }),
    ).toBeInTheDocument();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Tenant' }));
    fireEvent.click(await screen.findByRole('option', { name: 'No tenant (roadmap)' }));
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/triage/health?tenant=none'));
  });

  it('says the score chart fills from the next count when no day has a score yet', async () => {
    stubFetch({
      ...adminSession,
      'GET /api/admin/current-status-analytics': { body: { productBreakdown: [] } },
      'GET /api/triage/analytics': { body: { tenants: [], days: [{ date: '2026-11-25', open: 38, overdue: 4, done: 13, notRelevant: 5, score: null }] } },
      'GET /api/triage/health': { body: { score: 100, open: 0, costs: [], trend: [] } },
    });
    renderWithProviders(<AnalyticsTab />);
    expect(await screen.findByText('The score is counted once a day: the chart fills from the next count.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /change-health score/ })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Change health today: 100/100' })).toBeInTheDocument();
  });
});
