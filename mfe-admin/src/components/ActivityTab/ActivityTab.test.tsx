import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ModeratorActivity } from '@radar/contracts';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { ActivityTab, actionLabel } from './ActivityTab.js';

const activity = (id: number): ModeratorActivity => ({
  id,
  userId: 5,
  userEmail: 'mod@example.com',
  actionType: 'link_added',
  itemType: id % 2 ? 'roadmap' : 'message_center',
  itemId: id % 2 ? String(400000 + id) : `MC${id}`,
  itemTitle: `Item ${id}`,
  details: null,
  timestamp: '2026-03-05T14:30:00.000Z',
});

describe('ActivityTab', () => {
  it('labels actions', () => {
    expect(actionLabel('link_added')).toBe('Link added');
  });

  it('shows the five stats and pages through the log 20 at a time', async () => {
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/moderator-activity-stats': { body: { totalActivities: 45, featuredItems: 7, linksAdded: 20, notesAdded: 9, recentActivity: 4 } },
      'GET /api/admin/moderator-activities': (_init, url) => {
        const page = Number(new URL(url, 'http://x').searchParams.get('page'));
        const ids = Array.from({ length: page < 3 ? 20 : 5 }, (_, i) => (page - 1) * 20 + i + 1);
        return { body: { activities: ids.map(activity), total: 45, page, totalPages: 3 } };
      },
    });
    renderWithProviders(<ActivityTab />);
    const total = await screen.findByRole('group', { name: 'Total Activities' });
    expect(await within(total).findByText('45')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Featured Items' })).getByText('7')).toBeInTheDocument();
    // Says what it counts: the weekly digest's card of the same name counts this week's featured items.
    expect(screen.getByRole('group', { name: 'Featured Items' })).toHaveAccessibleDescription('Times an item was featured, all time');
    expect(within(screen.getByRole('group', { name: 'Links Added' })).getByText('20')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Notes Added' })).getByText('9')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Recent Activity (7 days)' })).getByText('4')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Moderator activity' });
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(screen.getByText('Page 1 of 3 · 45 activities')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Go to page 3' }));
    expect(await screen.findByText('Page 3 of 3 · 45 activities')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Moderator activity' })).getAllByRole('row')).toHaveLength(6);
    expect(calls.map((c) => c.url)).toEqual(
      expect.arrayContaining(['/api/admin/moderator-activities?page=1&limit=20', '/api/admin/moderator-activities?page=3&limit=20']),
    );
  });
});
