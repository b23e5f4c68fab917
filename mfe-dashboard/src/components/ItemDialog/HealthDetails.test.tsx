import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { anonymousRoutes, healthItem, messageItem } from '../../test-utils/fixtures.js';
import { ItemDialog } from './ItemDialog.js';

const NOW = new Date('2026-11-10T12:00:00.000Z');
const noop = () => undefined;

afterEach(() => useToastStore.setState({ toasts: [] }));

describe('Service Health dialog', () => {
  it('shows where the issue stands, its status timeline, every update, the report, its tenants and related posts', async () => {
    const item = healthItem();
    const related = messageItem({ messageId: 'MC2000001', title: 'Exchange Online: routing changes', service: ['Exchange Online'] });
    stubFetch({
      ...anonymousRoutes,
      'GET /api/service-health/issues/EX1000001': {
        body: {
          ...item,
          classification: 'incident',
          feature: 'E-Mail and calendar access',
          featureGroup: 'E-Mail and calendar access',
          origin: 'microsoft',
          statusLabel: 'Service restored',
          posts: [
            { postedAt: '2026-11-02T08:05:00.000Z', postType: 'regular', html: '<p>We are reviewing telemetry.</p>' },
            { postedAt: '2026-11-02T14:45:00.000Z', postType: 'quick', html: '<p>We have confirmed that the revert remediated impact.</p>' },
          ],
          statusTimeline: [
            { status: 'investigating', label: 'Investigating', at: '2026-11-02T08:05:00.000Z' },
            { status: 'serviceRestored', label: 'Service restored', at: '2026-11-02T14:45:00.000Z' },
          ],
          report: {
            downloadUrl: '/api/service-health/issues/EX1000001/report',
            contentType: 'application/pdf',
            size: 40,
            fetchedAt: '2026-11-06T16:10:00.000Z',
          },
          tenants: [{ id: 1, name: 'Contoso', firstSeen: '2026-11-02T08:10:00.000Z', lastModified: null, expired: false }],
          related: [related],
        },
      },
      'GET /api/service-health/issues/EX1000001/history': { body: [] },
    });
    const onOpenItem = jest.fn();
    renderWithProviders(<ItemDialog item={item} onClose={noop} onOpenItem={onOpenItem} onItemChange={noop} now={NOW} />);
    const dialog = screen.getByRole('dialog', { name: item.title });
    expect(within(dialog).getByText(/Issue ID/)).toBeInTheDocument();
    expect(within(dialog).getAllByText('Service restored').length).toBeGreaterThan(0);
    expect(within(dialog).getByText('Incident')).toBeInTheDocument();
    expect(within(dialog).getByText('Exchange Online')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', expect.stringContaining('#/servicehealth/:/alerts/EX1000001'));
    // Issues are followed through saved searches, not the item subscription.
    expect(within(dialog).queryByRole('button', { name: /Subscribe/ })).not.toBeInTheDocument();
    const timeline = await within(dialog).findByRole('region', { name: 'Status timeline' });
    expect(
      within(timeline)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringMatching(/^Investigating · /), expect.stringMatching(/^Service restored · /)]);
    const updates = within(dialog).getByRole('region', { name: 'Updates' });
    expect(within(updates).getByText('Updates (2)')).toBeInTheDocument();
    expect(within(updates).getByText('We have confirmed that the revert remediated impact.')).toBeInTheDocument();
    expect(within(updates).getByText(/Quick update/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Download the post-incident report' })).toHaveAttribute(
      'href',
      '/api/service-health/issues/EX1000001/report',
    );
    expect(within(dialog).getByText('Seen by 1 tenant')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'View Exchange Online: routing changes' }));
    expect(onOpenItem).toHaveBeenCalledWith(related);
  });
});
