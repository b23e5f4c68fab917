import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@radar/shared-ui/test';
import { messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { ItemCards } from './ItemCards.js';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('ItemCards', () => {
  it('shows a signed-in user each item’s triage on its card, overdue marked; guests see none', () => {
    const overdue = messageItem({ id: 'messages-MC1', messageId: 'MC1', title: 'Overdue post' });
    const plain = roadmapItem({ id: 'roadmap-1', itemId: '1', title: 'Roadmap item' });
    const triage = {
      'messages-MC1': [
        {
          tenantId: null,
          state: 'in_progress' as const,
          ownerId: 2,
          ownerName: 'Alice',
          dueDate: '2026-11-20',
          priority: 'high' as const,
          closedReason: null,
          overdueFrom: null,
        },
      ],
    };
    const { unmount } = renderWithProviders(<ItemCards items={[overdue, plain]} isLoading={false} onOpen={() => undefined} now={NOW} triage={triage} />);
    expect(screen.getByText('In progress · Alice · Due 2026-11-20 (overdue)')).toBeInTheDocument();
    expect(document.querySelectorAll('[data-triage]')).toHaveLength(1);
    unmount();
    renderWithProviders(<ItemCards items={[overdue]} isLoading={false} onOpen={() => undefined} now={NOW} />);
    expect(document.querySelectorAll('[data-triage]')).toHaveLength(0);
  });

  it('shows the relevance chip on a card, its reason for screen readers', () => {
    const post = messageItem({ id: 'messages-MC1', messageId: 'MC1', title: 'A Teams post' });
    const reason = '320 people used Word on the latest day reported, 32 % of licensed users';
    renderWithProviders(
      <ItemCards
        items={[post]}
        isLoading={false}
        onOpen={() => undefined}
        now={NOW}
        relevance={{ 'messages-MC1': { level: 'medium', tenantId: 1, reason } }}
      />,
    );
    expect(screen.getByText('Medium relevance')).toBeInTheDocument();
    expect(screen.getByText(`Relevance: Medium. ${reason}`)).toBeInTheDocument();
  });
});
