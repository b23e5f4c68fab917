import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { TriagePanel } from './TriagePanel.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const record = (over: Record<string, unknown> = {}) => ({
  itemType: 'message-center',
  itemId: 'MC1000001',
  tenantId: null,
  tenantName: null,
  state: 'new',
  ownerId: null,
  owner: null,
  dueDate: '2026-12-15',
  dueDateSource: 'action_required',
  dueDateReason: "Microsoft's act-by date",
  priority: 'high',
  prioritySource: 'action_required_major',
  priorityReason: 'Major change with an act-by date',
  commentCount: 0,
  setByRules: [],
  updatedAt: null,
  updatedBy: null,
  canEdit: 'all',
  opened: true,
  closedReason: null,
  startLine: '2026-11-01',
  overdue: false,
  tenants: [],
  licence: { status: 'licensed', tenants: ['Contoso'], unknownProducts: [] },
  ...over,
});

describe('Triage panel', () => {
  it('shows each default with its reason, and applies a suggestion only on Apply', async () => {
    const item = messageItem({ messageId: 'MC1000001' });
    const { calls } = stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record() },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
      'GET /api/triage/message-center/MC1000001/suggestion': {
        body: {
          source: 'rules',
          state: 'relevant',
          owner: { id: 4, name: 'Colla Borator', email: 'c@example.com' },
          priority: 'medium',
          reason: 'Rule “Teams” gives it to Colla Borator',
          note: null,
        },
      },
      'PUT /api/triage/message-center/MC1000001': {
        body: record({ state: 'relevant', ownerId: 4, owner: { id: 4, name: 'Colla Borator', email: 'c@example.com' } }),
      },
      'GET /api/triage/people': { body: { people: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(await within(panel).findByText("Microsoft's act-by date")).toBeInTheDocument();
    expect(within(panel).getByText('Major change with an act-by date')).toBeInTheDocument();
    expect(within(panel).getByText('Licensed: Contoso')).toBeInTheDocument();
    expect(within(panel).getByText('No comments yet.')).toBeInTheDocument();

    fireEvent.click(within(panel).getByRole('button', { name: 'Suggest' }));
    const suggestion = await within(panel).findByRole('alert', { name: 'Suggestion' });
    expect(suggestion).toHaveTextContent('Relevant · Colla Borator · Medium priority');
    expect(suggestion).toHaveTextContent('Suggested from the triage rules and past assignments (no AI service is configured).');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(within(suggestion).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ state: 'relevant', priority: 'medium', ownerId: 4 }));
  });

  it('is read-only for someone who may only read it', async () => {
    const item = messageItem({ messageId: 'MC1000001' });
    stubFetch({
      'GET /api/triage/message-center/MC1000001': {
        body: record({
          canEdit: 'none',
          owner: { id: 2, name: 'Alice', email: 'a@example.com' },
          ownerId: 2,
          licence: { status: 'unknown', tenants: [], unknownProducts: ['Contoso Widgets'] },
        }),
      },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(await within(panel).findByRole('textbox', { name: 'Owner' })).toHaveValue('Alice');
    expect(within(panel).getByRole('textbox', { name: 'Owner' })).toBeDisabled();
    expect(within(panel).getByText('Licence unknown: no licence rule knows Contoso Widgets')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Suggest' })).not.toBeInTheDocument();
    expect(within(panel).queryByLabelText('Add a comment')).not.toBeInTheDocument();
    expect(within(panel).getByText('The owner, moderators and admins take part in the conversation.')).toBeInTheDocument();
  });

  it('offers as owner of a tenant’s record only the people who may see that tenant', async () => {
    const item = messageItem({ messageId: 'MC1000001' });
    const { calls } = stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record({ tenantId: 7, tenantName: 'Fabrikam', tenants: [{ id: 7, name: 'Fabrikam' }] }) },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
      'GET /api/triage/people': { body: { people: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    await screen.findByRole('region', { name: 'Triage' });
    await waitFor(() => expect(calls.some((c) => c.url.includes('/api/triage/people'))).toBe(true));
    const asked = calls.filter((c) => c.url.includes('/api/triage/people'));
    expect(asked.every((c) => new URL(c.url, 'http://localhost').searchParams.get('tenant') === '7')).toBe(true);
  });

  it('lists the tasks in trackers with their link, and creates one for a moderator', async () => {
    const item = messageItem({ messageId: 'MC1000001' });
    let tasks: unknown[] = [];
    const task = {
      trackerId: 3,
      trackerName: 'Change board',
      kind: 'jira',
      tenantId: null,
      status: 'open',
      key: 'CHG-12',
      url: 'https://contoso.atlassian.net/browse/CHG-12',
      remoteState: 'To Do',
      lastError: null,
      lastPulledAt: null,
    };
    const { calls } = stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record() },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
      'GET /api/triage/message-center/MC1000001/tasks': () => ({ body: { tasks, targets: [{ id: 3, name: 'Change board', kind: 'jira' }] } }),
      'POST /api/triage/message-center/MC1000001/tasks': () => {
        tasks = [task];
        return { status: 201, body: task };
      },
      'GET /api/triage/people': { body: { people: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const section = await screen.findByRole('region', { name: 'Tasks in trackers' });
    expect(within(section).getByText('No task yet')).toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: 'Create task in Change board' }));
    await waitFor(() => expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Task created', description: 'CHG-12 in Change board' }));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ trackerId: 3, recreate: false });
    const link = await within(section).findByRole('link', { name: 'CHG-12' });
    expect(link).toHaveAttribute('href', 'https://contoso.atlassian.net/browse/CHG-12');
    expect(within(section).getByText('(To Do)')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Update task in Change board' })).toBeInTheDocument();
  });

  it('offers to close the open record of an expired post in one click, as Not relevant', async () => {
    const item = { ...messageItem({ messageId: 'MC1000001' }), isRemoved: true, removedAt: '2026-11-20T00:00:00.000Z' };
    const { calls } = stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record({ ownerId: 4, owner: { id: 4, name: 'Colla Borator', email: 'c@example.com' } }) },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
      'PUT /api/triage/message-center/MC1000001': { body: record({ state: 'not_relevant' }) },
      'GET /api/triage/people': { body: { people: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(await within(panel).findByText(/This post has expired: the record stays open in the queues until someone closes it/)).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole('button', { name: 'Close: no longer applies' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ state: 'not_relevant' }));
  });

  it('shows a roadmap item nobody opened read-only, and “Triage this” opens it and shows the record answered', async () => {
    const item = roadmapItem({ itemId: '412345' });
    const unopened = record({ itemType: 'roadmap', itemId: '412345', opened: false, dueDateSource: 'roadmap_ga', dueDateReason: 'The roadmap’s release date' });
    const answered = {
      ...unopened,
      opened: true,
      ownerId: 4,
      owner: { id: 4, name: 'Colla Borator', email: 'c@example.com' },
      setByRules: [{ field: 'owner', ruleId: 2, ruleName: 'Teams' }],
    };
    let stored: Record<string, unknown> = unopened;
    const { calls } = stubFetch({
      'GET /api/triage/roadmap/412345': () => ({ body: stored }),
      'POST /api/triage/roadmap/412345/open': () => {
        stored = answered;
        return { body: answered };
      },
      'GET /api/triage/roadmap/412345/comments': { body: { comments: [] } },
      'GET /api/triage/roadmap/412345/tasks': { body: { tasks: [], targets: [] } },
      'GET /api/triage/people': { body: { people: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(
      await within(panel).findByText(
        'Not in triage yet. Roadmap items are triaged when someone opens them, a rule matches them, or a triaged post announces them.',
      ),
    ).toBeInTheDocument();
    // The defaults, read-only: no field, suggestion or tracker task until it is opened.
    expect(within(panel).getByRole('combobox', { name: 'State' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(panel).getByRole('combobox', { name: 'Priority' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(panel).getByRole('textbox', { name: 'Owner' })).toBeDisabled();
    expect(within(panel).getByLabelText('Due date')).toBeDisabled();
    expect(within(panel).queryByRole('button', { name: 'Suggest' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tasks in trackers' })).not.toBeInTheDocument();

    fireEvent.click(within(panel).getByRole('button', { name: 'Triage this' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => new URL(c.url, 'http://localhost').pathname)).toEqual(['/api/triage/roadmap/412345/open']),
    );
    expect(await within(panel).findByText('Owner set by the rule “Teams”')).toBeInTheDocument();
    expect(within(panel).queryByText(/Not in triage yet/)).not.toBeInTheDocument();
    expect(within(panel).getByRole('combobox', { name: 'State' })).not.toHaveAttribute('aria-disabled');
    expect(within(panel).getByRole('button', { name: 'Suggest' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('offers no “Triage this” to someone who may not open a record', async () => {
    const item = roadmapItem({ itemId: '412345' });
    stubFetch({
      'GET /api/triage/roadmap/412345': { body: record({ itemType: 'roadmap', itemId: '412345', opened: false, canEdit: 'none' }) },
      'GET /api/triage/roadmap/412345/comments': { body: { comments: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(await within(panel).findByText(/^Not in triage yet\./)).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Triage this' })).not.toBeInTheDocument();
  });

  it('says a record was closed before tracking, with its starting line, and Reopen puts it back to New', async () => {
    const item = messageItem({ messageId: 'MC1000001' });
    const { calls } = stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record({ state: 'done', closedReason: 'before_tracking', canEdit: 'state' }) },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
      'PUT /api/triage/message-center/MC1000001': { body: record() },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(await within(panel).findByText('Closed before tracking: this item was already past when triage started on Nov 1, 2026.')).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ state: 'new' }]));
  });

  it('offers no Reopen to someone who may only read the record closed before tracking', async () => {
    const item = messageItem({ messageId: 'MC1000001' });
    stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record({ state: 'done', closedReason: 'before_tracking', canEdit: 'none' }) },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(await within(panel).findByText(/^Closed before tracking/)).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Reopen' })).not.toBeInTheDocument();
  });

  it('marks an overdue record beside its due date, saying why it was due then', async () => {
    const item = messageItem({ messageId: 'MC1000001' });
    stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record({ overdue: true }) },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
      'GET /api/triage/people': { body: { people: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    const chip = await within(panel).findByText('Overdue');
    fireEvent.mouseOver(chip);
    expect(await screen.findByRole('tooltip')).toHaveTextContent("Due Dec 15, 2026: Microsoft's act-by date");
  });

  it('shows no Overdue mark on a record that is not overdue', async () => {
    const item = messageItem({ messageId: 'MC1000001' });
    stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record() },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
      'GET /api/triage/people': { body: { people: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(await within(panel).findByText("Microsoft's act-by date")).toBeInTheDocument();
    expect(within(panel).queryByText('Overdue')).not.toBeInTheDocument();
  });

  it('offers no close for a record already closed', async () => {
    const item = { ...messageItem({ messageId: 'MC1000001' }), isRemoved: true, removedAt: '2026-11-20T00:00:00.000Z' };
    stubFetch({
      'GET /api/triage/message-center/MC1000001': { body: record({ state: 'done' }) },
      'GET /api/triage/message-center/MC1000001/comments': { body: { comments: [] } },
      'GET /api/triage/people': { body: { people: [] } },
    });
    renderWithProviders(<TriagePanel item={item} />);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    expect(await within(panel).findByText('No comments yet.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Close: no longer applies' })).not.toBeInTheDocument();
  });
});
