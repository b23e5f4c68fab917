import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { useToastStore } from '@radar/shared-ui';
import { NotificationsPage } from './NotificationsPage.js';

const base = {
  'GET /api/auth/session-user': { body: { user: makeUser() } },
  'GET /api/weekly-digest/status': { body: { isSubscribed: false, email: 'ada@example.com' } },
  'GET /api/notification-subscriptions': { body: [] },
};
const channel = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  scope: 'personal',
  kind: 'teams',
  name: `Channel ${id}`,
  target: 'prod-12.westeurope.logic.azure.com …Qx1z',
  paused: false,
  pausedReason: null,
  consecutiveFailures: 0,
  triageNotices: false,
  createdAt: '2026-02-01T10:00:00.000Z',
  lastDeliveryAt: null,
  ...extra,
});
const search = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  scope: 'personal',
  name: `Search ${id}`,
  query: { search: 'Teams Rooms', sortField: 'createdDate', sortDirection: 'desc' },
  alertOn: ['new', 'changed'],
  schedule: 'daily',
  hour: 8,
  weekday: 1,
  timeZone: 'Europe/Berlin',
  channelIds: [1],
  paused: false,
  createdAt: '2026-02-01T10:00:00.000Z',
  updatedAt: '2026-02-01T10:00:00.000Z',
  lastDigestAt: null,
  ...extra,
});

describe('NotificationsPage: saved searches and alert channels', () => {
  beforeEach(() => useToastStore.setState({ toasts: [] }));

  it('lists saved searches with their settings, opens, renames, pauses and deletes (after asking)', async () => {
    let searches = [search(5)];
    const { calls } = stubFetch({
      ...base,
      'GET /api/alert-channels': { body: [channel(1, { name: 'IT Teams' })] },
      'GET /api/saved-searches': () => ({ body: searches }),
      'PUT /api/saved-searches/5': (init) => {
        searches = [{ ...searches[0]!, ...JSON.parse(String(init?.body)) }];
        return { body: searches[0] };
      },
      'DELETE /api/saved-searches/5': () => {
        searches = [];
        return { body: { success: true, message: 'Saved search deleted' } };
      },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    const list = await screen.findByRole('list', { name: 'Your saved searches' });
    expect(within(list).getByText('Search 5')).toBeInTheDocument();
    expect(within(list).getByText('New and changed items · Daily at 08:00 (Europe/Berlin) · To IT Teams')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Search 5 on the dashboard' })).toHaveAttribute('href', '/dashboard?savedSearch=5');

    fireEvent.click(screen.getByRole('button', { name: 'Rename Search 5' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename saved search' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Search name' }), { target: { value: ' ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Search name is required')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Search name' }), { target: { value: 'Teams Rooms' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Teams Rooms')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      name: 'Teams Rooms',
      query: { search: 'Teams Rooms' },
      channelIds: [1],
      paused: false,
    });

    fireEvent.click(await screen.findByRole('button', { name: 'Pause Teams Rooms' }));
    expect(await screen.findByText('Paused')).toBeInTheDocument();
    expect(useToastStore.getState().toasts[0]?.title).toBe('Saved search paused');

    fireEvent.click(await screen.findByRole('button', { name: 'Delete Teams Rooms' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “Teams Rooms”?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No saved searches yet')).toBeInTheDocument();
  });

  it("marks the organisation's saved searches and channels (an admin's) with an Organisation chip, beside the user's own", async () => {
    stubFetch({
      ...base,
      'GET /api/auth/session-user': { body: { user: makeUser({ roles: ['Admin'] }) } },
      'GET /api/alert-channels': { body: [channel(1, { name: 'My Teams' }), channel(2, { name: 'IT Slack', kind: 'slack', scope: 'organisation' })] },
      'GET /api/saved-searches': { body: [search(5, { name: 'Mine' }), search(6, { name: 'Org retirements', scope: 'organisation', channelIds: [2] })] },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    const searches = await screen.findByRole('list', { name: 'Your saved searches' });
    const [mine, org] = within(searches).getAllByRole('listitem');
    expect(mine).toHaveTextContent('Mine');
    expect(within(mine!).queryByText('Organisation')).not.toBeInTheDocument();
    expect(org).toHaveTextContent('Org retirements');
    expect(within(org!).getByText('Organisation')).toBeInTheDocument();
    const channels = await screen.findByRole('list', { name: 'Your alert channels' });
    const [myChannel, orgChannel] = within(channels).getAllByRole('listitem');
    expect(within(myChannel!).queryByText('Organisation')).not.toBeInTheDocument();
    expect(orgChannel).toHaveTextContent('IT Slack');
    expect(within(orgChannel!).getByText('Organisation')).toBeInTheDocument();
  });

  it('adds a webhook channel and shows its signing secret once; a refused URL names the problem at the field', async () => {
    let channels: ReturnType<typeof channel>[] = [];
    stubFetch({
      ...base,
      'GET /api/saved-searches': { body: [] },
      'GET /api/alert-channels': () => ({ body: channels }),
      'POST /api/alert-channels': (init) => {
        const body = JSON.parse(String(init?.body));
        if (body.url.includes('169.254')) {
          return {
            status: 400,
            body: {
              error: {
                name: 'InputError',
                message: 'url: refused',
                issues: [
                  {
                    path: 'url',
                    message: 'Webhook URL host 169.254.169.254 resolves to 169.254.169.254, a cloud metadata address: refused to protect the internal network',
                  },
                ],
              },
            },
          };
        }
        channels = [channel(2, { kind: 'webhook', name: body.name, target: 'siem.example.com …hook' })];
        return { status: 201, body: { ...channels[0], signingSecret: 'whsec_abc123' } };
      },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    const form = await screen.findByRole('form', { name: 'Add a channel' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    expect(await within(form).findByText('Channel name is required')).toBeInTheDocument();
    expect(within(form).getByText('Webhook URL is required')).toBeInTheDocument();
    fireEvent.mouseDown(within(form).getByRole('combobox', { name: 'Channel type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Webhook' }));
    fireEvent.change(within(form).getByRole('textbox', { name: 'Channel name' }), { target: { value: 'SIEM' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Webhook URL' }), { target: { value: 'https://169.254.169.254/x' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    expect(await within(form).findByText(/a cloud metadata address: refused/)).toBeInTheDocument();
    fireEvent.change(within(form).getByRole('textbox', { name: 'Webhook URL' }), { target: { value: 'https://siem.example.com/hook' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    expect(await screen.findByRole('textbox', { name: 'Signing secret' })).toHaveValue('whsec_abc123');
    expect(await screen.findByText('siem.example.com …hook')).toBeInTheDocument();
  });

  it('sends a test, shows the delivery log and resumes a channel paused after failures', async () => {
    let paused = true;
    stubFetch({
      ...base,
      'GET /api/saved-searches': { body: [] },
      'GET /api/alert-channels': () => ({
        body: [
          channel(3, {
            name: 'Slack #it',
            kind: 'slack',
            paused,
            pausedReason: paused ? 'Paused after 10 failed deliveries in a row' : null,
            consecutiveFailures: paused ? 10 : 0,
          }),
        ],
      }),
      'POST /api/alert-channels/3/test': {
        body: { success: false, message: 'Test message not delivered: HTTP 404: the receiver refused the message', entry: null },
      },
      'GET /api/alert-channels/3/deliveries': {
        body: [
          {
            id: 1,
            deliveryId: 1,
            at: '2026-02-07T10:00:00.000Z',
            trigger: 'instant',
            outcome: 'failed',
            statusCode: 404,
            latencyMs: 87,
            response: 'no_service',
            error: 'HTTP 404: the receiver refused the message',
          },
        ],
      },
      'PUT /api/alert-channels/3': () => {
        paused = false;
        return { body: channel(3, { name: 'Slack #it', kind: 'slack' }) };
      },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    expect(await screen.findByText(/Paused after 10 failed deliveries in a row/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send test to Slack #it' }));
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0]).toMatchObject({
        title: 'Test failed',
        description: 'Test message not delivered: HTTP 404: the receiver refused the message',
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delivery log of Slack #it' }));
    const log = await screen.findByRole('dialog', { name: 'Delivery log: Slack #it' });
    const row = await within(log).findByRole('row', { name: /no_service/ });
    expect(within(row).getByText('404')).toBeInTheDocument();
    expect(within(row).getByText('87 ms')).toBeInTheDocument();
    fireEvent.click(within(log).getByRole('button', { name: 'Close' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Resume Slack #it' }));
    await waitFor(() => expect(screen.queryByText(/Paused after 10/)).not.toBeInTheDocument());
  });

  it("switches a personal channel's triage notices on; e-mail and organisation channels offer no switch", async () => {
    let on = false;
    const { calls } = stubFetch({
      ...base,
      'GET /api/saved-searches': { body: [] },
      'GET /api/alert-channels': () => ({
        body: [
          channel(4, { name: 'Slack me', kind: 'slack', triageNotices: on }),
          channel(5, { name: 'Mail', kind: 'email', target: 'ada@example.com' }),
          channel(6, { name: 'Org Teams', scope: 'organisation' }),
        ],
      }),
      'PUT /api/alert-channels/4': (init) => {
        on = JSON.parse(String(init?.body)).triageNotices;
        return { body: channel(4, { name: 'Slack me', kind: 'slack', triageNotices: on }) };
      },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    const switches = await screen.findAllByRole('switch', { name: 'Triage notices' });
    expect(switches).toHaveLength(1);
    fireEvent.click(switches[0]!);
    await waitFor(() => expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Triage notices on' }));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ triageNotices: true });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Triage notices' })).toBeChecked());
  });

  it('asks for the passkey when adding a channel needs a recent check, and adds nothing when that is declined', async () => {
    let posts = 0;
    stubFetch({
      ...base,
      'GET /api/saved-searches': { body: [] },
      'GET /api/alert-channels': { body: [] },
      'POST /api/alert-channels': () => {
        posts += 1;
        return {
          status: 403,
          body: { error: { name: 'ReauthenticationRequired', message: 'Confirm with your passkey to continue: this change needs a recent passkey check' } },
        };
      },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    const form = await screen.findByRole('form', { name: 'Add a channel' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Channel name' }), { target: { value: 'IT Teams' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Webhook URL' }), { target: { value: 'https://prod-12.westeurope.logic.azure.com/x' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    const ask = await screen.findByRole('dialog', { name: 'Confirm with your passkey' });
    expect(within(ask).getByText('Confirm with your passkey to continue: this change needs a recent passkey check')).toBeInTheDocument();
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts).toBe(1);
    expect(screen.queryByText('Channel not added')).not.toBeInTheDocument();
  });

  const reauth = {
    status: 403,
    body: { error: { name: 'ReauthenticationRequired', message: 'Confirm with your passkey to continue: this change needs a recent passkey check' } },
  };

  it('asks for the passkey before deleting an organisation channel, and deletes nothing when that is declined', async () => {
    let deletes = 0;
    stubFetch({
      ...base,
      'GET /api/auth/session-user': { body: { user: makeUser({ roles: ['Admin'] }) } },
      'GET /api/saved-searches': { body: [] },
      'GET /api/alert-channels': { body: [channel(2, { name: 'IT Slack', kind: 'slack', scope: 'organisation' })] },
      'DELETE /api/alert-channels/2': () => {
        deletes += 1;
        return reauth;
      },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete channel IT Slack' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete “IT Slack”?' })).getByRole('button', { name: 'Delete' }));
    const ask = await screen.findByRole('dialog', { name: 'Confirm with your passkey' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes).toBe(1);
    expect(screen.queryByText('Delete failed')).not.toBeInTheDocument();
    expect(screen.getByText('IT Slack')).toBeInTheDocument();
  });

  it('asks for the passkey before pausing an organisation search, and shows no failure when that is declined', async () => {
    let puts = 0;
    stubFetch({
      ...base,
      'GET /api/auth/session-user': { body: { user: makeUser({ roles: ['Admin'] }) } },
      'GET /api/alert-channels': { body: [channel(2, { name: 'IT Slack', kind: 'slack', scope: 'organisation' })] },
      'GET /api/saved-searches': { body: [search(6, { name: 'Org retirements', scope: 'organisation', channelIds: [2] })] },
      'PUT /api/saved-searches/6': () => {
        puts += 1;
        return reauth;
      },
    });
    renderWithProviders(<NotificationsPage />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Pause Org retirements' }));
    const ask = await screen.findByRole('dialog', { name: 'Confirm with your passkey' });
    expect(within(ask).getByText('Confirm with your passkey to continue: this change needs a recent passkey check')).toBeInTheDocument();
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts).toBe(1);
    expect(screen.queryByText('Saved search not updated')).not.toBeInTheDocument();
  });
});
