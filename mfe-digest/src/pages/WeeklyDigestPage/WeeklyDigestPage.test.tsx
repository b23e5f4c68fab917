import { afterEach, describe, expect, it, jest as jestApi } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch, type StubAnswer } from '@radar/shared-ui/test';
import { anonymousRoutes, featured, messageItem, roadmapItem, weeklyDigest } from '../../test-utils/fixtures.js';
import App from '../../App.js';
import { EMPTY_DIGEST_TEXT } from './WeeklyDigestPage.js';

// Whole-page renders with MUI are slow on a busy 2-core machine.
jestApi.setTimeout(30_000);

afterEach(() => useToastStore.setState({ toasts: [] }));

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function renderPage(routes: Record<string, StubAnswer>) {
  const stub = stubFetch({ ...anonymousRoutes, 'GET /api/featured/timeframe': { body: [] }, ...routes });
  renderWithProviders(
    <>
      {/* Mounted the way the shell mounts it. */}
      <Routes>
        <Route path="/weekly-digest/*" element={<App />} />
      </Routes>
      <LocationProbe />
    </>,
    { route: '/weekly-digest' },
  );
  return stub;
}

const statValue = (label: string) => within(screen.getByRole('group', { name: label })).getByTestId('stat-value').textContent;

const fullDigest = weeklyDigest({
  roadmapNew: [
    roadmapItem({ itemId: '500001', title: 'Teams: new roadmap item' }),
    roadmapItem({ itemId: '500002', title: 'Outlook: another new item', product: 'Outlook' }),
  ],
  roadmapChanged: [roadmapItem({ itemId: '400001', title: 'SharePoint: changed item', status: 'Rolling out' })],
  messagesNew: [messageItem({ messageId: 'MC700001', title: 'New message post' })],
  messagesUpdated: [
    messageItem({ messageId: 'MC600001', title: 'Updated message post' }),
    messageItem({ messageId: 'MC600002', title: 'Another updated post' }),
  ],
});

describe('WeeklyDigestPage', () => {
  it('shows the loading state, then the week range, stat cards, carousel and the four tables', async () => {
    const { calls } = renderPage({
      'GET /api/weekly-digest': { body: fullDigest },
      'GET /api/featured/timeframe': { body: [1, 2, 3, 4, 5, 6].map(featured) },
    });
    expect(screen.getByRole('heading', { name: 'Weekly Digest', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Loading weekly digest...').closest('[role="status"]')).not.toBeNull();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');

    expect(await screen.findByTestId('week-range')).toHaveTextContent('Mar 1, 2026 – Mar 8, 2026');
    expect(screen.getByText('Next digest: Sunday, Mar 15, 2026 at 8:00 AM UTC')).toBeInTheDocument();
    expect(screen.queryByText('Loading weekly digest...')).not.toBeInTheDocument();

    expect(statValue('New Items')).toBe('3');
    expect(statValue('Updated Items')).toBe('3');
    expect(statValue('Total Activity')).toBe('6');
    await waitFor(() => expect(statValue('Featured Items')).toBe('6'));
    // Says what it counts (the admin Activity tab's card of the same name counts every featuring, all time).
    expect(screen.getByRole('group', { name: 'Featured Items' })).toHaveAccessibleDescription('Featured by moderators this week');

    const featuredCall = calls.find((c) => c.url.startsWith('/api/featured/timeframe'));
    const query = new URL(featuredCall!.url, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({ startDate: '2026-03-01T08:00:00.000Z', endDate: '2026-03-08T08:00:00.000Z', limit: '6' });

    const carousel = screen.getByRole('region', { name: 'Featured items this week' });
    expect(
      within(carousel)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Featured 1', 'Featured 2', 'Featured 3']);
    fireEvent.click(within(carousel).getByRole('button', { name: 'Next featured items' }));
    expect(
      within(carousel)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Featured 4', 'Featured 5', 'Featured 6']);
    expect(within(carousel).getAllByRole('button', { name: /Go to slide/ })).toHaveLength(2);

    const rowsOf = (name: string) => within(screen.getByRole('table', { name })).getAllByRole('row').slice(1);
    expect(rowsOf('New Roadmap Items')).toHaveLength(2);
    expect(rowsOf('Updated Roadmap Items')).toHaveLength(1);
    expect(rowsOf('New Message Center Posts')).toHaveLength(1);
    expect(rowsOf('Updated Message Center Posts')).toHaveLength(2);
    expect(screen.queryByText(EMPTY_DIGEST_TEXT)).not.toBeInTheDocument();
  });

  it('opens the item on the dashboard from a row', async () => {
    renderPage({ 'GET /api/weekly-digest': { body: fullDigest } });
    fireEvent.click(await screen.findByRole('cell', { name: 'MC600002' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?message=MC600002');
  });

  it('shows the empty text and zero counts when nothing changed', async () => {
    renderPage({ 'GET /api/weekly-digest': { body: weeklyDigest() } });
    expect(await screen.findByText(EMPTY_DIGEST_TEXT)).toBeInTheDocument();
    await waitFor(() => expect(statValue('Featured Items')).toBe('0'));
    for (const label of ['New Items', 'Updated Items', 'Total Activity']) expect(statValue(label)).toBe('0');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Featured items this week' })).not.toBeInTheDocument();
  });

  it('shows the error text with Try Again, which refetches', async () => {
    let attempts = 0;
    const { calls } = renderPage({
      'GET /api/weekly-digest': () => {
        attempts += 1;
        return attempts === 1 ? { status: 500, body: { error: { name: 'Error', message: 'Database unavailable' } } } : { body: fullDigest };
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('500: {"error":{"name":"Error","message":"Database unavailable"}}');
    expect(screen.queryByRole('group', { name: 'New Items' })).not.toBeInTheDocument();

    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('week-range')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/weekly-digest')).toHaveLength(2);
  });

  it('says Retrying... while Try Again waits for the digest, and offers it again when that fails too', async () => {
    renderPage({ 'GET /api/weekly-digest': { status: 503, body: { error: { name: 'Error', message: 'Database unavailable' } } } });
    const alert = await screen.findByRole('alert');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = window.fetch;
    window.fetch = (async (...args: Parameters<typeof fetch>) => {
      await gate;
      return answer(...args);
    }) as typeof fetch;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await within(alert).findByRole('button', { name: 'Retrying...' })).toBeDisabled();
    release();
    expect(await within(await screen.findByRole('alert')).findByRole('button', { name: 'Try Again' })).toBeEnabled();
  });

  it('still shows the digest when the featured items fail', async () => {
    renderPage({
      'GET /api/weekly-digest': { body: fullDigest },
      'GET /api/featured/timeframe': { status: 500, body: { error: { name: 'Error', message: 'boom' } } },
    });
    expect(await screen.findByRole('table', { name: 'New Roadmap Items' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('group', { name: 'Featured Items' })).toHaveTextContent('—'));
    expect(within(screen.getByRole('group', { name: 'Featured Items' })).getByText('Not available')).toBeInTheDocument();
    expect(statValue('Total Activity')).toBe('6');
  });

  it('opens the signup dialog from the call to action', async () => {
    renderPage({ 'GET /api/weekly-digest': { body: fullDigest } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up for Weekly Digest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign Up for Weekly Digest' });
    expect(within(dialog).getByRole('textbox', { name: /First Name/ })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
