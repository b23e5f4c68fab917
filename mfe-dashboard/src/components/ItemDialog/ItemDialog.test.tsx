import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useAuthDialogStore, useToastStore } from '@radar/shared-ui';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { anonymousRoutes, messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { useState } from 'react';
import type { UnifiedItem } from '@radar/contracts';
import { ItemDialog } from './ItemDialog.js';

const NOW = new Date('2026-02-10T12:00:00.000Z');
const noop = () => undefined;

// The auth-dialog and toast stores are module singletons (shared with the host): reset them between tests.
afterEach(() => {
  useAuthDialogStore.setState({ isOpen: false });
  useToastStore.setState({ toasts: [] });
});

describe('roadmap detail dialog', () => {
  it('shows every field, empty texts, provider link and related messages whose View opens the other dialog', async () => {
    const related = messageItem({
      messageId: 'MC555',
      title: 'Related message',
      tags: ['Retirement', 'Feature update', 'Admin impact'],
      publishedDate: '2026-02-07T12:00:00.000Z',
    });
    stubFetch({
      ...anonymousRoutes,
      'GET /api/roadmap/items/412345/history': { body: [] },
      'GET /api/roadmap/items/412345/linked-messages': { body: [related] },
    });
    const onOpenItem = jest.fn();
    renderWithProviders(
      <ItemDialog
        item={roadmapItem({ description: null, product: 'Microsoft Teams, Outlook' })}
        onClose={noop}
        onOpenItem={onOpenItem}
        onItemChange={noop}
        now={NOW}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Microsoft Teams: new meeting recap' });
    expect(within(dialog).getByText('412345')).toBeInTheDocument();
    expect(within(dialog).getByText(/Roadmap ID/)).toBeInTheDocument();
    expect(within(dialog).getByText('No description available')).toBeInTheDocument();
    expect(within(dialog).getByText('Outlook')).toBeInTheDocument();
    expect(within(dialog).getByText('Worldwide (Standard Multi-Tenant), GCC')).toBeInTheDocument();
    expect(within(dialog).getByText('General Availability')).toBeInTheDocument();
    expect(within(dialog).getByText('Mar 2026')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'View on the AI at Work Roadmap' })).toHaveAttribute(
      'href',
      'https://www.microsoft.com/microsoft-365/roadmap?searchterms=412345',
    );
    expect(within(dialog).queryByRole('button', { name: 'Moderate' })).not.toBeInTheDocument();
    expect(await within(dialog).findByText('No change history available')).toBeInTheDocument();
    expect(await within(dialog).findByText('Related message')).toBeInTheDocument();
    expect(within(dialog).getByText('Published 3 days ago')).toBeInTheDocument();
    expect(within(dialog).getByText('ADMIN IMPACT')).toBeInTheDocument();
    expect(within(dialog).getByText('Retirement')).toBeInTheDocument();
    expect(within(dialog).queryByText('Feature update')).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'View Related message' }));
    expect(onOpenItem).toHaveBeenCalledWith(related);
  });

  it('shows inline errors for history and linked messages, and copies the share link with a toast', async () => {
    stubFetch({
      ...anonymousRoutes,
      'GET /api/roadmap/items/412345/history': { status: 500, body: { error: { name: 'Error', message: 'boom' } } },
      'GET /api/roadmap/items/412345/linked-messages': { status: 500, body: { error: { name: 'Error', message: 'boom' } } },
    });
    const writeText = jest.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderWithProviders(<ItemDialog item={roadmapItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    expect(await screen.findByText('Failed to fetch change history')).toBeInTheDocument();
    expect(await screen.findByText('Failed to fetch linked messages')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Link Copied')).toBeInTheDocument();
    expect(screen.getByText('Share link copied to clipboard')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/roadmap/412345`);
  });

  it('shows Community Resources with Curated by moderator, and Moderate for moderators', async () => {
    stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser({ roles: [{ id: 2, name: 'Moderator' }] }) } },
      'GET /api/auth/user-roles': { body: [{ id: 1, roleId: 2, role: { id: 2, name: 'Moderator' } }] },
      'GET /api/notification-subscriptions': { body: [] },
      'GET /api/roadmap/items/412345/history': { body: [] },
      'GET /api/roadmap/items/412345/linked-messages': { body: [] },
    });
    renderWithProviders(
      <ItemDialog
        item={roadmapItem({
          moderatedBy: 'mod@example.com',
          thirdPartyLinks: [{ title: 'Walkthrough', url: 'https://example.com/v', type: 'video', description: 'A video' }],
        })}
        onClose={noop}
        onOpenItem={noop}
        onItemChange={noop}
        now={NOW}
      />,
    );
    expect(screen.getByText('Curated by moderator')).toBeInTheDocument();
    expect(screen.getByText('Walkthrough')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Walkthrough' })).toHaveAttribute('href', 'https://example.com/v');
    expect(await screen.findByRole('button', { name: 'Moderate' })).toBeInTheDocument();
  });
});

describe('moderation from the dialog', () => {
  function Stateful({ initial }: { initial: UnifiedItem }) {
    const [item, setItem] = useState(initial);
    return <ItemDialog item={item} onClose={noop} onOpenItem={noop} onItemChange={setItem} now={NOW} />;
  }

  it('gates Moderate on GET /api/auth/user-roles, not on the session user', async () => {
    const { calls } = stubFetch({
      // The session still lists Moderator, but the role lookup (e.g. while impersonating User) does not.
      'GET /api/auth/session-user': { body: { user: makeUser({ roles: [{ id: 2, name: 'Moderator' }] }) } },
      'GET /api/auth/user-roles': { body: [{ id: 1, roleId: 3, role: { id: 3, name: 'User' } }] },
      'GET /api/notification-subscriptions': { body: [] },
      'GET /api/roadmap/items/412345/history': { body: [] },
      'GET /api/roadmap/items/412345/linked-messages': { body: [] },
    });
    renderWithProviders(<ItemDialog item={roadmapItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    await waitFor(() => expect(calls.some((c) => c.url === '/api/auth/user-roles')).toBe(true));
    await screen.findByText('No change history available');
    expect(screen.queryByRole('button', { name: 'Moderate' })).not.toBeInTheDocument();
  });

  it("shows the saved item from the server's answer at once: Curated by moderator without a refetch", async () => {
    const saved = roadmapItem({
      isFeatured: true,
      moderatedBy: 'mod@example.com',
      thirdPartyLinks: [{ title: 'Deep dive', url: 'https://example.com/deep', type: 'blog' }],
    });
    const { calls } = stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser({ id: 5, roles: [{ id: 2, name: 'Moderator' }] }) } },
      'GET /api/auth/user-roles': { body: [{ id: 1, roleId: 2, role: { id: 2, name: 'Moderator' } }] },
      'GET /api/notification-subscriptions': { body: [] },
      'GET /api/roadmap/items/412345/history': { body: [] },
      'GET /api/roadmap/items/412345/linked-messages': { body: [] },
      'PUT /api/moderator/roadmap/412345': { body: { success: true, message: 'Moderation settings updated successfully', item: saved } },
      'POST /api/moderator-activity': { status: 201, body: {} },
    });
    renderWithProviders(<Stateful initial={roadmapItem()} />);
    expect(screen.queryByText('Curated by moderator')).not.toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Moderate' }));
    const moderation = await screen.findByRole('dialog', { name: /^Moderate:/ });
    fireEvent.change(within(moderation).getByLabelText('Link title'), { target: { value: 'Deep dive' } });
    fireEvent.change(within(moderation).getByLabelText('Link URL'), { target: { value: 'https://example.com/deep' } });
    fireEvent.click(within(moderation).getByRole('button', { name: 'Add Link' }));
    fireEvent.click(within(moderation).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Curated by moderator')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Moderate:/ })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Open Deep dive' })).toHaveAttribute('href', 'https://example.com/deep');
    expect(calls.some((c) => c.url.startsWith('/api/unified/items'))).toBe(false);
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/moderator-activity')).toHaveLength(1));
  });
});

describe('message detail dialog', () => {
  it('shows the fields, No summary available, the sanitised body, attachments and the Admin link', async () => {
    stubFetch({
      ...anonymousRoutes,
      'GET /api/message-center/items/MC1000001/history': {
        body: [{ id: 1, changeType: 'changed', changeDate: '2026-02-01T10:00:00Z', changedFields: ['lastUpdated'], previousValues: {}, newValues: {} }],
      },
      'GET /api/message-center/items/MC1000001/linked-roadmap': { body: [roadmapItem({ description: 'z'.repeat(260) })] },
    });
    renderWithProviders(
      <ItemDialog
        item={messageItem({
          summary: null,
          bodyContent: '<p>Body <a href="https://learn.microsoft.com">docs</a><script>alert(1)</script></p>',
          attachments: [{}, {}],
          isMajorChange: true,
          platforms: 'Web',
          value: 'Security',
        })}
        onClose={noop}
        onOpenItem={noop}
        onItemChange={noop}
        now={NOW}
      />,
    );
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(/Message Center ID/)).toBeInTheDocument();
    expect(within(dialog).getByText('No summary available')).toBeInTheDocument();
    expect(within(dialog).getByText('Exchange Online')).toBeInTheDocument();
    expect(within(dialog).getByText('Major change')).toBeInTheDocument();
    expect(within(dialog).getByText('Security')).toBeInTheDocument();
    expect(within(dialog).getByText('2 attachment(s) available')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Admin' })).toHaveAttribute(
      'href',
      'https://admin.microsoft.com/AdminPortal/home#/MessageCenter/:/messages/MC1000001',
    );
    const body = within(dialog).getByTestId('safe-html');
    expect(body.innerHTML).not.toContain('script');
    expect(within(body).getByRole('link', { name: 'docs' })).toHaveAttribute('target', '_blank');
    expect(await within(dialog).findByText('No significant changes recorded yet')).toBeInTheDocument();
    expect(await within(dialog).findByText(`${'z'.repeat(200)}...`)).toBeInTheDocument();
  });

  it('says when linked roadmap items fail to load', async () => {
    stubFetch({ ...anonymousRoutes, 'GET /api/message-center/items/MC1000001/history': { body: [] } });
    renderWithProviders(<ItemDialog item={messageItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    expect(await screen.findByText('Failed to fetch linked roadmap items')).toBeInTheDocument();
  });
});

describe('message detail dialog: the 2026 post', () => {
  it('shows the body by section (and whole on request), the rollout timing per ring and the status for your org', async () => {
    const item = messageItem({
      bodyContent: '<p><b>[What and Why:]</b></p><p>Why it changes.</p><p><b>[Rollout Schedule:]</b></p><ul><li>Targeted Release: late July 2026</li></ul>',
    });
    stubFetch({
      ...anonymousRoutes,
      'GET /api/message-center/items/MC1000001/history': { body: [] },
      'GET /api/message-center/items/MC1000001/linked-roadmap': { body: [] },
      'GET /api/message-center/items/MC1000001': {
        body: {
          ...item,
          sections: [
            { title: 'What and Why', kind: 'whatAndWhy', html: '<p>Why it changes.</p>' },
            { title: 'Rollout Schedule', kind: 'rollout', html: '<ul><li>Targeted Release: late July 2026</li></ul>' },
          ],
          timing: [{ ring: 'Targeted', label: 'late July 2026', start: '2026-07-21', end: '2026-07-31' }],
          tenantStatus: [
            { roadmapId: '500003', platform: 'Web', status: 'InRollout', label: 'Rolling out' },
            { roadmapId: '500003', platform: 'Mac', status: 'FeatureRolloutStatusNotSupported', label: 'Not supported' },
          ],
          attachmentFiles: [
            {
              id: 'a1',
              name: 'guide.pdf',
              contentType: 'application/pdf',
              size: 2048,
              lastModified: null,
              downloadUrl: '/api/message-center/items/MC1000001/attachments/a1',
              unavailableReason: null,
            },
            {
              id: 'a2',
              name: 'huge.zip',
              contentType: 'application/zip',
              size: 99999999,
              lastModified: null,
              downloadUrl: null,
              unavailableReason: 'Larger than 25 MB: not kept',
            },
          ],
          tenants: [
            { id: 1, name: 'Contoso', firstSeen: '2026-07-01T10:00:00.000Z', lastModified: null, expired: false },
            { id: 2, name: 'Fabrikam', firstSeen: '2026-07-03T10:00:00.000Z', lastModified: null, expired: true },
          ],
        },
      },
    });
    renderWithProviders(<ItemDialog item={item} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    const dialog = screen.getByRole('dialog');
    const why = await within(dialog).findByRole('region', { name: 'What and Why' });
    expect(within(why).getByRole('heading', { name: 'What and Why' })).toBeInTheDocument();
    expect(why).toHaveTextContent('Why it changes.');
    expect(within(dialog).getByRole('region', { name: 'Rollout Schedule' })).toHaveTextContent('Targeted Release: late July 2026');
    const timing = within(dialog).getByRole('table', { name: 'Rollout timing' });
    expect(within(timing).getAllByRole('row')[1]).toHaveTextContent(/Targeted Release.*late July 2026.*Jul 21, 2026 – Jul 31, 2026/);
    const status = within(dialog).getByRole('table', { name: 'Status for your org' });
    expect(
      within(status)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual(['WebRolling out', 'MacNot supported']);
    const files = within(dialog).getByRole('list', { name: 'Attachments' });
    expect(within(files).getByRole('link', { name: 'guide.pdf' })).toHaveAttribute('download', 'guide.pdf');
    expect(files).toHaveTextContent('huge.zip (95.4 MB) — Larger than 25 MB: not kept');
    expect(within(dialog).getByText('2 attachment(s) available')).toBeInTheDocument();
    const tenants = within(dialog).getByRole('region', { name: 'Tenants' });
    expect(within(tenants).getByRole('heading', { name: 'Received by 2 tenants' })).toBeInTheDocument();
    expect(
      within(tenants)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Contoso: since Jul 1, 2026', 'Fabrikam: since Jul 3, 2026 (no longer listed)']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show the whole post' }));
    expect(within(dialog).queryByRole('region', { name: 'What and Why' })).toBeNull();
    expect(within(dialog).getByTestId('safe-html')).toHaveTextContent('[What and Why:]');
  });
});

describe('subscribe toggle', () => {
  it('offers sign-in to guests', async () => {
    stubFetch({ ...anonymousRoutes, 'GET /api/roadmap/items/412345/history': { body: [] }, 'GET /api/roadmap/items/412345/linked-messages': { body: [] } });
    renderWithProviders(<ItemDialog item={roadmapItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Subscribe (sign in)' })).toBeInTheDocument());
    fireEvent.click(screen.getByRole('switch', { name: 'Subscribe (sign in)' }));
    expect(await screen.findByRole('dialog', { name: /Sign In/ })).toBeInTheDocument();
  });

  it('signed-in users subscribe with the subscription payload and unsubscribe by DELETE', async () => {
    let subscriptions: unknown[] = [];
    const { calls } = stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser() } },
      'GET /api/notification-subscriptions': () => ({ body: subscriptions }),
      'POST /api/notification-subscriptions': () => {
        subscriptions = [
          {
            id: 7,
            subscriptionType: 'item',
            itemId: 'MC1000001',
            itemType: 'message_center',
            itemTitle: 'x',
            changeTypes: ['changed', 'status_change'],
            isActive: true,
          },
        ];
        return { status: 201, body: subscriptions[0] };
      },
      'DELETE /api/notification-subscriptions/7': () => {
        subscriptions = [];
        return { status: 204 };
      },
      'GET /api/message-center/items/MC1000001/history': { body: [] },
      'GET /api/message-center/items/MC1000001/linked-roadmap': { body: [] },
    });
    renderWithProviders(<ItemDialog item={messageItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    fireEvent.click(await screen.findByRole('switch', { name: 'Subscribe' }));
    expect(await screen.findByText('Subscription created')).toBeInTheDocument();
    expect(screen.getByText('You will be notified when the message center item is updated.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      subscriptionType: 'item',
      itemId: 'MC1000001',
      itemType: 'message_center',
      itemTitle: 'Retirement of legacy connectors',
      changeTypes: ['changed', 'status_change'],
      isActive: true,
    });
    fireEvent.click(await screen.findByRole('switch', { name: 'Subscribed' }));
    expect(await screen.findByText('Subscription removed')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/notification-subscriptions/7'))).toBe(true);
  });

  it('shows the failure toast', async () => {
    stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser() } },
      'GET /api/notification-subscriptions': { body: [] },
      'POST /api/notification-subscriptions': { status: 500, body: { error: { name: 'Error', message: 'boom' } } },
      'GET /api/roadmap/items/412345/history': { body: [] },
      'GET /api/roadmap/items/412345/linked-messages': { body: [] },
    });
    renderWithProviders(<ItemDialog item={roadmapItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    fireEvent.click(await screen.findByRole('switch', { name: 'Subscribe' }));
    expect(await screen.findByText('Subscription failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to create subscription. Please try again.')).toBeInTheDocument();
  });
});
