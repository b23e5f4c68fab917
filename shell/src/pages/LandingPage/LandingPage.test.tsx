import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { LandingPage } from './LandingPage.js';

const stats = (isDemoData: boolean) => ({
  total: 120,
  bySource: { roadmap: 100, messages: 20 },
  byStatus: [
    { name: 'In development', count: 742 },
    { name: 'Rolling out', count: 178 },
    { name: 'Launched', count: 882 },
  ],
  newLast7Days: 3,
  updatedLast7Days: 4,
  featured: 1,
  lastSync: { roadmap: null, messages: null },
  isDemoData,
});

const featured = [
  {
    source: 'roadmap',
    id: 'roadmap-1',
    itemId: '1',
    messageId: null,
    title: 'Copilot in Teams',
    description: 'd',
    summary: null,
    product: 'Teams',
    services: null,
    status: 'Rolling out',
  },
];

describe('LandingPage', () => {
  it('shows live status counts, the source cards, the demo notice and the carousel', async () => {
    const { calls } = stubFetch({
      'GET /api/dashboard/stats': { body: { ...stats(true), bySource: { roadmap: 1834, messages: 20 } } },
      'GET /api/featured/recent': { body: featured },
    });
    renderWithProviders(<LandingPage />, { withAuthDialog: false });
    expect(screen.getByRole('link', { name: 'Open Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Start Exploring' })).toHaveAttribute('href', '/dashboard');
    expect(await screen.findByText('742')).toBeInTheDocument();
    expect(screen.getByText('178')).toBeInTheDocument();
    expect(screen.getByText('882')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Roadmap Intelligence' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Message Center' })).toBeInTheDocument();
    expect(screen.getByText('Demo data.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'View Details: Copilot in Teams' })).toHaveAttribute('href', '/dashboard?roadmap=1');
    // The live roadmap count stands where the first design claimed "1,800+"; stats are asked for both sources.
    expect(screen.getByTestId('roadmap-count')).toHaveTextContent('Tracking 1,834 roadmap items and 20 Message Center announcements');
    expect(calls.map((c) => c.url)).toContain('/api/dashboard/stats?sources=roadmap&sources=messages&sources=health');
    expect(calls.map((c) => c.url)).toContain('/api/featured/recent?limit=6');
    // Arrows and dots show with a single slide too.
    expect(screen.getByRole('button', { name: 'Next featured items' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to slide 1' })).toBeInTheDocument();
  });

  it('hides the carousel without featured items and the notice for real data', async () => {
    stubFetch({ 'GET /api/dashboard/stats': { body: stats(false) }, 'GET /api/featured/recent': { body: [] } });
    renderWithProviders(<LandingPage />, { withAuthDialog: false });
    expect(await screen.findByText('742')).toBeInTheDocument();
    expect(screen.queryByText('Demo data.')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Featured items' })).not.toBeInTheDocument();
  });
});
