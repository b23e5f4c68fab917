import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Tracker } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { TrackersTab } from './TrackersTab.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const tracker = (overrides: Partial<Tracker> = {}): Tracker => ({
  id: 1,
  kind: 'jira',
  name: 'Change board',
  settings: {
    baseUrl: 'https://contoso.atlassian.net',
    email: 'bot@contoso.com',
    projectKey: 'CHG',
    issueType: 'Task',
    labels: ['m365-radar'],
    setDueDate: true,
    priorities: { high: 'High', medium: 'Medium', low: 'Low' },
  },
  hasSecret: true,
  authorization: null,
  paused: false,
  pausedReason: null,
  consecutiveFailures: 0,
  linkedTasks: 12,
  openTasks: 5,
  lastPullAt: '2026-11-26T12:00:00.000Z',
  lastPullError: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

describe('TrackersTab', () => {
  it('lists trackers, tests one (naming what is missing) and connects Jira with the fields the API checks', async () => {
    let list = [
      tracker(),
      tracker({
        id: 2,
        kind: 'servicenow',
        name: 'ITSM',
        settings: { baseUrl: 'https://contoso.service-now.com', table: 'sc_task' },
        paused: true,
        pausedReason: 'Paused after 10 failed calls in a row',
      }),
    ];
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/integrations': () => ({ body: { trackers: list } }),
      'GET /api/admin/tenants': {
        body: [
          { id: 5, name: 'Fabrikam', visibility: 'private', secretSet: true },
          { id: 6, name: 'Contoso', visibility: 'public', secretSet: true },
        ],
      },
      'POST /api/admin/integrations/1/test': {
        body: {
          ok: false,
          message: 'Not ready: Permissions',
          checks: [
            { name: 'Sign-in', ok: true, message: 'Signed in as Radar Bot' },
            { name: 'Permissions', ok: false, message: 'This account lacks in CHG: Add comments' },
          ],
        },
      },
      'POST /api/admin/integrations': (init) => {
        const body = JSON.parse(String(init?.body)) as { name: string };
        const added = tracker({ id: 3, name: body.name, linkedTasks: 0, openTasks: 0, lastPullAt: null });
        list = [...list, added];
        return { status: 201, body: added };
      },
    });
    renderWithProviders(<TrackersTab />);
    expect(await screen.findAllByText('Change board')).not.toHaveLength(0);
    expect(screen.getAllByText('12 linked · 5 open').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Paused: Paused after 10 failed calls in a row').length).toBeGreaterThan(0);

    fireEvent.click(screen.getAllByRole('button', { name: 'Test Change board' })[0]!);
    const outcome = await screen.findByLabelText('Connection test of Change board');
    expect(within(outcome).getByText(/This account lacks in CHG: Add comments/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Connect a tracker' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a tracker' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('name is required')).toBeInTheDocument();
    const type = (label: RegExp, value: string) => fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    type(/^Name/, 'Ops board');
    type(/^Site URL/, 'https://ops.atlassian.net');
    type(/^Account e-mail/, 'bot@contoso.com');
    type(/^API token/, 'token-1');
    type(/^Project key/, 'ops');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/projectKey must be a Jira project key/)).toBeInTheDocument();
    type(/^Project key/, 'OPS');
    // Only private tenants are offered: public tenants' posts go to every tracker.
    fireEvent.mouseDown(await within(dialog).findByRole('combobox', { name: 'Private tenants it may carry' }));
    expect(screen.queryByRole('option', { name: 'Contoso' })).not.toBeInTheDocument();
    fireEvent.click(await screen.findByRole('option', { name: 'Fabrikam' }));
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Connect a tracker' })).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/admin/integrations'))?.body).toMatchObject({
      kind: 'jira',
      name: 'Ops board',
      baseUrl: 'https://ops.atlassian.net',
      apiToken: 'token-1',
      projectKey: 'OPS',
      issueType: 'Task',
      priorities: { high: 'High', medium: 'Medium', low: 'Low' },
      privateTenantIds: [5],
    });
    expect(await screen.findAllByText('Ops board')).not.toHaveLength(0);
  });

  it('connects Planner from the lists Graph gives: tenant, then group, plan and bucket, each clearing the ones below', async () => {
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/integrations': { body: { trackers: [] } },
      'GET /api/admin/tenants': {
        body: [
          { id: 7, name: 'Contoso', secretSet: true },
          { id: 8, name: 'Fabrikam', secretSet: false },
        ],
      },
      'GET /api/admin/integrations/planner-options': (_init, url) => {
        const q = new URL(url, 'http://x').searchParams;
        return {
          body: {
            groups: [{ id: 'grp-it', name: 'IT Operations' }],
            plans: q.get('groupId') ? [{ id: 'plan-1', name: 'M365 changes' }] : [],
            buckets: q.get('planId') ? [{ id: 'bucket-1', name: 'To triage' }] : [],
            problem: null,
          },
        };
      },
      'POST /api/admin/integrations': (init) => ({
        status: 201,
        body: tracker({ id: 9, kind: 'planner', name: String(JSON.parse(String(init?.body)).name) }),
      }),
    });
    renderWithProviders(<TrackersTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect a tracker' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a tracker' });
    const choose = async (label: string, option: string) => {
      fireEvent.mouseDown(await within(dialog).findByRole('combobox', { name: label }));
      fireEvent.click(await screen.findByRole('option', { name: option }));
    };
    await choose('Tracker', 'Microsoft Planner');
    expect(within(dialog).getByText(/Tasks\.ReadWrite\.All application permission/)).toBeInTheDocument();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Tenant' }));
    expect(await screen.findByRole('option', { name: 'Fabrikam (no client secret)' })).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(screen.getByRole('option', { name: 'Contoso' }));
    await choose('Group', 'IT Operations');
    await choose('Plan', 'M365 changes');
    await choose('Bucket', 'To triage');
    await choose('Sign in as', 'A user who authorizes it (delegated)');
    expect(
      within(dialog).getByText(/Register this redirect URI \(Web\) in the tenant's app: .*\/api\/admin\/integrations\/oauth\/callback/),
    ).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'IT board' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Connect a tracker' })).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/admin/integrations'))?.body).toEqual({
      kind: 'planner',
      auth: 'delegated',
      name: 'IT board',
      tenantId: 7,
      groupId: 'grp-it',
      planId: 'plan-1',
      bucketId: 'bucket-1',
      planName: 'M365 changes',
      bucketName: 'To triage',
      priorities: { high: '3', medium: '5', low: '9' },
      setDueDate: true,
      privateTenantIds: [],
    });
  });

  it('connects Jira with an OAuth app, sends the admin to the consent page, and says how the authorization went', async () => {
    const callbackUrl = 'https://radar.example.com/api/admin/integrations/oauth/callback';
    const oauthRow = tracker({
      id: 4,
      name: 'Jira (OAuth)',
      settings: { baseUrl: 'https://contoso.atlassian.net', auth: 'oauth', clientId: 'app-1', projectKey: 'CHG', issueType: 'Task' },
      authorization: { authorized: false, authorizedBy: null, authorizedAt: null, callbackUrl },
    });
    const assign = jest.fn();
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/integrations': { body: { trackers: [oauthRow] } },
      'POST /api/admin/integrations/4/authorize': { body: { url: 'https://auth.atlassian.com/authorize?state=s' } },
      'PUT /api/admin/integrations/4': (init) => ({ body: { ...oauthRow, ...JSON.parse(String(init?.body)) } }),
    });
    renderWithProviders(<TrackersTab openPage={assign} />, {
      route: '/admin?tab=integrations&oauthError=Not%20authorized%3A%20The%20user%20denied%20access',
    });
    expect(await screen.findByText('Not authorized: The user denied access')).toBeInTheDocument();
    expect(screen.getAllByText('Not authorized: use Authorize').length).toBeGreaterThan(0);

    fireEvent.click(screen.getAllByRole('button', { name: 'Authorize Jira (OAuth)' })[0]!);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://auth.atlassian.com/authorize?state=s'));

    // Changing it: the callback URL to register is the server's; the client secret may stay as it is.
    fireEvent.click(screen.getAllByRole('button', { name: 'Change Jira (OAuth)' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Change Jira (OAuth)' });
    expect(within(dialog).getByText(`Register this callback URL with the app: ${callbackUrl}`)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Client secret/)).toHaveValue('');
    // Back to an API token: the token is required, because the stored secret was the app's.
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Sign in with' }));
    fireEvent.click(await screen.findByRole('option', { name: 'E-mail and API token' }));
    fireEvent.change(within(dialog).getByLabelText(/^Account e-mail/), { target: { value: 'bot@contoso.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('apiToken is required')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(/^API token/), { target: { value: 'token-2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ apiToken: 'token-2', settings: { auth: 'token', email: 'bot@contoso.com' } }),
    );
  });

  it('opens the delivery log of a tracker with its calls, and closes it', async () => {
    stubFetch({
      ...adminSession,
      'GET /api/admin/integrations': { body: { trackers: [tracker()] } },
      'GET /api/admin/integrations/1/deliveries': {
        body: {
          attempts: [
            {
              id: 7,
              at: '2026-11-26T12:00:00.000Z',
              action: 'create',
              taskKey: 'CHG-12',
              outcome: 'sent',
              statusCode: 201,
              latencyMs: 84,
              response: '{"key":"CHG-12"}',
              error: null,
            },
          ],
        },
      },
    });
    renderWithProviders(<TrackersTab />);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Delivery log of Change board' }))[0]!);
    const log = await screen.findByRole('dialog', { name: 'Delivery log: Change board' });
    expect(await within(log).findByText('CHG-12')).toBeInTheDocument();
    expect(within(log).getByText('201 · 84 ms')).toBeInTheDocument();
    fireEvent.click(within(log).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delivery log: Change board' })).not.toBeInTheDocument());
  });
});
