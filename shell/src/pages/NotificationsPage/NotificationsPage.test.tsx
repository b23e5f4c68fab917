import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { useToastStore } from '@radar/shared-ui';
import { NotificationsPage } from './NotificationsPage.js';

const signedIn = { 'GET /api/auth/session-user': { body: { user: makeUser() } } };
const subscription = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  subscriptionType: 'item',
  itemId: String(4000 + id),
  itemType: 'roadmap',
  itemTitle: `Item ${id}`,
  changeTypes: ['changed', 'status_change'],
  isActive: true,
  ...overrides,
});

describe('NotificationsPage', () => {
  beforeEach(() => useToastStore.setState({ toasts: [] }));

  it('signed out: a sign-in-required view linking to /api/login', async () => {
    stubFetch({
      'GET /api/auth/session-user': { body: { user: null } },
      'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'x' } } },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    expect(await screen.findByText('Sign in required')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/api/login');
  });

  it('subscribes to the weekly digest with the success toast', async () => {
    let subscribed = false;
    const { calls } = stubFetch({
      ...signedIn,
      'GET /api/weekly-digest/status': () => ({ body: { isSubscribed: subscribed, email: 'ada@example.com' } }),
      'POST /api/weekly-digest/subscribe-authenticated': () => {
        subscribed = true;
        return { body: { success: true } };
      },
      'GET /api/notification-subscriptions': { body: [] },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    expect(await screen.findByText('Not subscribed')).toBeInTheDocument();
    expect(screen.getByText('No item subscriptions yet')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Subscribed')).toBeInTheDocument();
    expect(useToastStore.getState().toasts[0]?.title).toBe('Successfully subscribed!');
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/weekly-digest/subscribe-authenticated')).toBe(true);
  });

  it('digest subscribe failure toasts Subscription failed', async () => {
    stubFetch({
      ...signedIn,
      'GET /api/weekly-digest/status': { body: { isSubscribed: false, email: 'ada@example.com' } },
      'POST /api/weekly-digest/subscribe-authenticated': { status: 500 },
      'GET /api/notification-subscriptions': { body: [] },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Subscription failed', description: 'Failed to subscribe to weekly digest' }),
    );
  });

  it('lists active item subscriptions and removes one', async () => {
    let subs = [subscription(1), subscription(2, { itemTitle: null, itemType: 'message_center', itemId: 'MC9' }), subscription(3, { isActive: false })];
    stubFetch({
      ...signedIn,
      'GET /api/weekly-digest/status': { body: { isSubscribed: true, email: 'ada@example.com' } },
      'GET /api/notification-subscriptions': () => ({ body: subs }),
      'DELETE /api/notification-subscriptions/1': () => {
        subs = subs.filter((s) => s.id !== 1);
        return { status: 204 };
      },
      'DELETE /api/notification-subscriptions/2': { status: 500 },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    expect(await screen.findByText('Item 1')).toBeInTheDocument();
    expect(screen.getByText('Untitled Item')).toBeInTheDocument();
    expect(screen.getByText(/Message Center · ID: MC9/)).toBeInTheDocument();
    expect(screen.queryByText('Item 3')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove subscription: Item 1' }));
    await waitFor(() => expect(screen.queryByText('Item 1')).not.toBeInTheDocument());
    expect(useToastStore.getState().toasts[0]?.title).toBe('Unsubscribed');
    fireEvent.click(screen.getByRole('button', { name: 'Remove subscription: Untitled Item' }));
    await waitFor(() => expect(useToastStore.getState().toasts[0]?.description).toBe('Failed to unsubscribe from this item'));
  });
});
