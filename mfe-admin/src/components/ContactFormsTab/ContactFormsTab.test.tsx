import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ContactSubmission } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { ContactFormsTab } from './ContactFormsTab.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const submission = (id: number, isRead: boolean): ContactSubmission => ({
  id,
  firstName: id === 1 ? 'Grace' : 'Alan',
  lastName: id === 1 ? 'Hopper' : 'Turing',
  email: `user${id}@example.com`,
  message: 'Please add a Viva filter.',
  submittedAt: '2026-03-05T14:30:00.000Z',
  isRead,
});

describe('ContactFormsTab', () => {
  it('shows read state, marks a submission read and deletes one', async () => {
    let list = [submission(1, false), submission(2, true)];
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/contact-submissions': () => ({ body: list }),
      'PATCH /api/admin/contact-submissions/1/read': () => {
        list = [submission(1, true), submission(2, true)];
        return { body: list[0] };
      },
      'DELETE /api/admin/contact-submissions/2': () => {
        list = [list[0]];
        return { body: { success: true } };
      },
    });
    renderWithProviders(<ContactFormsTab />);
    const grace = await screen.findByRole('article', { name: 'Message from Grace Hopper' });
    expect(within(grace).getByText('Unread')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Message from Alan Turing' })).queryByRole('button', { name: 'Mark as read' })).not.toBeInTheDocument();
    fireEvent.click(within(grace).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(within(screen.getByRole('article', { name: 'Message from Grace Hopper' })).getByText('Read')).toBeInTheDocument());
    fireEvent.click(within(screen.getByRole('article', { name: 'Message from Alan Turing' })).getByRole('button', { name: 'Delete' }));
    // Nothing is deleted before the confirmation; Cancel keeps the message.
    const confirm = await screen.findByRole('dialog', { name: 'Delete submission' });
    expect(confirm).toHaveTextContent('Delete the message from user2@example.com? It cannot be recovered.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(screen.getByRole('article', { name: 'Message from Alan Turing' })).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete submission' })).getByRole('button', { name: 'Delete Submission' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Message from Alan Turing' })).not.toBeInTheDocument());
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(
      expect.arrayContaining(['PATCH /api/admin/contact-submissions/1/read', 'DELETE /api/admin/contact-submissions/2']),
    );
  });

  it('toasts the two failure texts', async () => {
    stubFetch({
      ...adminSession,
      'GET /api/admin/contact-submissions': { body: [submission(1, false)] },
      'PATCH /api/admin/contact-submissions/1/read': { status: 500 },
      'DELETE /api/admin/contact-submissions/1': { status: 500 },
    });
    renderWithProviders(<ContactFormsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as read' }));
    expect(await screen.findByText('Failed to mark submission as read.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Submission' }));
    expect(await screen.findByText('Failed to delete submission.')).toBeInTheDocument();
  });
});
