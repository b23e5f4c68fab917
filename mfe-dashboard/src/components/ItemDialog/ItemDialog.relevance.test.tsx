import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { anonymousRoutes, healthItem, messageItem } from '../../test-utils/fixtures.js';
import { ItemDialog } from './ItemDialog.js';

const noop = () => undefined;
const NOW = new Date('2026-02-10T12:00:00.000Z');
const postRoutes = {
  'GET /api/message-center/items/MC1000001/history': { body: [] },
  'GET /api/message-center/items/MC1000001/linked-roadmap': { body: [] },
};
const relevance = {
  body: {
    tenants: [
      {
        tenantId: 1,
        tenantName: 'Contoso',
        level: 'medium',
        reason: '120 people used SharePoint in the last 30 days, 12 % of licensed users',
        workload: 'sharepoint',
        activeUsers: 120,
        share: 0.12,
        computedAt: '2026-02-09T06:00:00.000Z',
      },
    ],
  },
};

describe('item dialog: relevance', () => {
  it('shows signed-in users a Relevance section with each tenant’s level and reason', async () => {
    stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser() } },
      ...postRoutes,
      'GET /api/relevance/message-center/MC1000001': relevance,
    });
    renderWithProviders(<ItemDialog item={messageItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    const section = await screen.findByRole('region', { name: 'Relevance' });
    expect(await within(section).findByText('120 people used SharePoint in the last 30 days, 12 % of licensed users')).toBeInTheDocument();
    expect(within(section).getByText('Medium')).toBeInTheDocument();
  });

  it('shows guests no Relevance section and asks for none', async () => {
    const { calls } = stubFetch({ ...anonymousRoutes, ...postRoutes });
    renderWithProviders(<ItemDialog item={messageItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    await screen.findByText('No change history available');
    expect(screen.queryByRole('region', { name: 'Relevance' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/api/relevance/'))).toBe(false);
  });

  it('has no Relevance section for a Service Health issue', async () => {
    const { calls } = stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser() } } });
    renderWithProviders(<ItemDialog item={healthItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    await screen.findByRole('region', { name: 'Triage' });
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/triage/'))).toBe(true));
    expect(screen.queryByRole('region', { name: 'Relevance' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/api/relevance/'))).toBe(false);
  });
});
