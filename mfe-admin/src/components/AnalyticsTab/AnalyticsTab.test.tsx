import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { AnalyticsTab } from './AnalyticsTab.js';

jest.setTimeout(30_000);

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

  it('says so when there is nothing to show', async () => {
    stubFetch({ ...adminSession, 'GET /api/admin/current-status-analytics': { body: { productBreakdown: [] } } });
    renderWithProviders(<AnalyticsTab />);
    expect(await screen.findByText('No products to show yet.')).toBeInTheDocument();
  });
});
