import { beforeAll, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
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
    const days = [
      { date: '2026-11-24', open: 40, overdue: 3, done: 10, notRelevant: 5 },
      { date: '2026-11-25', open: 38, overdue: 4, done: 13, notRelevant: 5 },
    ];
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/current-status-analytics': { body: { productBreakdown: [] } },
      'GET /api/triage/analytics': (_init, url) => ({ body: { tenants: [{ id: 7, name: 'Contoso' }], days: url.includes('tenant=7') ? [] : days } }),
    });
    renderWithProviders(<AnalyticsTab />);
    expect(await screen.findByRole('img', { name: /on 2026-11-25: 38 open, 4 overdue, 13 done/ })).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Tenant' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Contoso' }));
    expect(await screen.findByText('Triage is counted once a day: the chart fills from the first count.')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/api/triage/analytics?tenant=7');
  });
});
