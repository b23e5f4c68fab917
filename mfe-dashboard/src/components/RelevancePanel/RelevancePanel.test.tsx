import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { TenantRelevance } from '@radar/contracts';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { RELEVANCE_TENANTS_SHOWN, RelevancePanel } from './RelevancePanel.js';

const tenant = (over: Partial<TenantRelevance>): TenantRelevance => ({
  tenantId: 1,
  tenantName: 'Contoso',
  level: 'high',
  reason: '1,240 people used Teams in the last 30 days, 82 % of licensed users',
  workload: 'teams',
  activeUsers: 1240,
  share: 0.82,
  computedAt: '2026-11-28T06:00:00.000Z',
  ...over,
});
const URL = '/api/relevance/message-center/MC1000001';
const post = () => messageItem({ messageId: 'MC1000001' });
const lines = async () => within(await screen.findByRole('list', { name: 'Relevance per tenant' })).getAllByRole('listitem');

describe('Relevance panel', () => {
  it('lists each tenant with its level in words and its reason, most relevant first', async () => {
    stubFetch({
      [`GET ${URL}`]: {
        body: {
          tenants: [
            tenant({ tenantId: 2, tenantName: 'Fabrikam', level: 'low', reason: 'Nobody used Teams in the last 30 days (0 of 40 licensed users)' }),
            tenant({ tenantId: 1 }),
            tenant({ tenantId: 3, tenantName: 'Litware', level: 'unknown', reason: 'Usage not read yet', workload: null, activeUsers: null, share: null }),
          ],
        },
      },
    });
    renderWithProviders(<RelevancePanel item={post()} />);
    const [first, second, third] = await lines();
    expect(first).toHaveTextContent('HighContoso1,240 people used Teams in the last 30 days, 82 % of licensed users');
    expect(second).toHaveTextContent('LowFabrikamNobody used Teams in the last 30 days (0 of 40 licensed users)');
    expect(third).toHaveTextContent('UnknownLitwareUsage not read yet');
    expect(within(first).getByText(/^As of /)).toBeInTheDocument();
  });

  it('names the item as triage does: a roadmap item by its number', async () => {
    const { calls } = stubFetch({ 'GET /api/relevance/roadmap/412345': { body: { tenants: [tenant({})] } } });
    renderWithProviders(<RelevancePanel item={roadmapItem()} />);
    expect(await lines()).toHaveLength(1);
    expect(calls.map((c) => c.url)).toContain('/api/relevance/roadmap/412345');
  });

  it('says so when no tenant’s usage was read yet', async () => {
    stubFetch({ [`GET ${URL}`]: { body: { tenants: [] } } });
    renderWithProviders(<RelevancePanel item={post()} />);
    expect(await screen.findByText("No tenant's usage read yet")).toBeInTheDocument();
  });

  it('shows the server’s message when loading fails', async () => {
    stubFetch({ [`GET ${URL}`]: { status: 500, body: { error: { name: 'Error', message: 'The relevance could not be read' } } } });
    renderWithProviders(<RelevancePanel item={post()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The relevance could not be read');
  });

  it('says it is loading until the answer is here', async () => {
    stubFetch({ [`GET ${URL}`]: { body: { tenants: [tenant({})] } } });
    renderWithProviders(<RelevancePanel item={post()} />);
    const region = screen.getByRole('region', { name: 'Relevance' });
    expect(within(region).getByText('Loading…')).toBeInTheDocument();
    expect(await lines()).toHaveLength(1);
    expect(within(region).queryByText('Loading…')).not.toBeInTheDocument();
  });

  it(`shows ${RELEVANCE_TENANTS_SHOWN} tenants, and the rest on Show all`, async () => {
    const many = Array.from({ length: 7 }, (_, i) => tenant({ tenantId: i + 1, tenantName: `Tenant ${i + 1}` }));
    stubFetch({ [`GET ${URL}`]: { body: { tenants: many } } });
    renderWithProviders(<RelevancePanel item={post()} />);
    expect(await lines()).toHaveLength(RELEVANCE_TENANTS_SHOWN);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 7 tenants' }));
    expect(await lines()).toHaveLength(7);
  });
});
