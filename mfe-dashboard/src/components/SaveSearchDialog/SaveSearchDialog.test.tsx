import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { SaveSearchDialog } from './SaveSearchDialog.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const saved = (extra: Record<string, unknown> = {}) => ({
  id: 7,
  scope: 'personal',
  name: 'Teams Rooms',
  query: { search: 'Teams Rooms', sortField: 'createdDate', sortDirection: 'desc' },
  alertOn: ['new', 'changed'],
  schedule: 'instant',
  hour: 8,
  weekday: 1,
  timeZone: 'UTC',
  channelIds: [3],
  paused: false,
  createdAt: '2026-02-01T10:00:00.000Z',
  updatedAt: '2026-02-01T10:00:00.000Z',
  lastDigestAt: null,
  ...extra,
});
const teams = {
  id: 4,
  scope: 'personal',
  kind: 'teams',
  name: 'IT Teams',
  target: 'x …abcd',
  paused: false,
  pausedReason: null,
  consecutiveFailures: 0,
  createdAt: '2026-02-01T10:00:00.000Z',
  lastDeliveryAt: null,
};

describe('SaveSearchDialog', () => {
  it('asks for a name and at least one alert kind, each naming its field', async () => {
    stubFetch({ 'GET /api/alert-channels': { body: [] } });
    renderWithProviders(
      <SaveSearchDialog query={{ search: 'x' }} editing={null} droppedSinceLastVisit={false} onClose={() => undefined} onSaved={() => undefined} />,
      { withAuthDialog: false },
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'New items' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Changed items' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    expect(await screen.findByText('Search name is required')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one: new items, changed items, reached our tenant')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Search name' }), { target: { value: 'x'.repeat(101) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    expect(await screen.findByText('Search name must be at most 100 characters')).toBeInTheDocument();
  });

  it('saves the view with a daily digest, creating the e-mail channel for "E-mail me"', async () => {
    const onSaved = jest.fn();
    const { calls } = stubFetch({
      'GET /api/alert-channels': { body: [teams] },
      'POST /api/alert-channels': { status: 201, body: { ...teams, id: 9, kind: 'email', name: 'My e-mail', target: 'ada@example.com' } },
      'POST /api/saved-searches': { status: 201, body: saved({ id: 11, name: 'GCC High retirements', channelIds: [4, 9] }) },
    });
    renderWithProviders(
      <SaveSearchDialog
        query={{ search: 'retirement', cloudInstances: ['GCC High'], sortField: 'createdDate', sortDirection: 'desc' }}
        editing={null}
        droppedSinceLastVisit
        onClose={() => undefined}
        onSaved={onSaved}
      />,
      { withAuthDialog: false },
    );
    expect(screen.getByText(/“Since my last visit” is not saved/)).toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'E-mail me' })).toBeChecked();
    fireEvent.click(screen.getByRole('checkbox', { name: 'IT Teams (Microsoft Teams)' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Search name' }), { target: { value: 'GCC High retirements' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'When' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Daily digest' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Hour' }));
    fireEvent.click(await screen.findByRole('option', { name: '17:00' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Time zone' }), { target: { value: 'Europe/Berlin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/alert-channels')?.body).toEqual({ kind: 'email', name: 'My e-mail' });
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/saved-searches')?.body).toEqual({
      name: 'GCC High retirements',
      query: { search: 'retirement', cloudInstances: ['GCC High'], sortField: 'createdDate', sortDirection: 'desc' },
      alertOn: ['new', 'changed'],
      schedule: 'daily',
      hour: 17,
      weekday: 1,
      timeZone: 'Europe/Berlin',
      channelIds: [4, 9],
      paused: false,
      scope: 'personal',
    });
    expect(useToastStore.getState().toasts[0]?.title).toBe('Search saved');
  });

  it('saves over an opened search with PUT, keeping its settings', async () => {
    const { calls } = stubFetch({
      'GET /api/alert-channels': { body: [{ ...teams, id: 3 }] },
      'PUT /api/saved-searches/7': { body: saved({ query: { search: 'Teams Rooms Pro' } }) },
    });
    const onSaved = jest.fn();
    renderWithProviders(
      <SaveSearchDialog
        query={{ search: 'Teams Rooms Pro' }}
        editing={saved() as never}
        droppedSinceLastVisit={false}
        onClose={() => undefined}
        onSaved={onSaved}
      />,
      {
        withAuthDialog: false,
      },
    );
    expect(screen.getByRole('heading', { name: 'Save changes to “Teams Rooms”' })).toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'IT Teams (Microsoft Teams)' })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ name: 'Teams Rooms', query: { search: 'Teams Rooms Pro' }, channelIds: [3] });
    expect(useToastStore.getState().toasts[0]?.title).toBe('Saved search updated');
  });

  it('lets an admin save it for the whole organisation, to organisation channels only', async () => {
    const onSaved = jest.fn();
    const { calls } = stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser({ roles: [{ id: 1, name: 'Admin' }] }) } },
      'GET /api/alert-channels': {
        body: [
          { ...teams, kind: 'email', id: 2, name: 'My e-mail' },
          { ...teams, id: 5, scope: 'organisation', name: 'All of IT' },
        ],
      },
      'POST /api/saved-searches': { status: 201, body: saved({ id: 12, scope: 'organisation', name: 'Major changes', channelIds: [5] }) },
    });
    renderWithProviders(
      <SaveSearchDialog
        query={{ messageCenterTags: ['Major change'] }}
        editing={null}
        droppedSinceLastVisit={false}
        onClose={() => undefined}
        onSaved={onSaved}
      />,
      {
        withAuthDialog: false,
      },
    );
    expect(await screen.findByRole('checkbox', { name: 'My e-mail (E-mail)' })).toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'All of IT (Microsoft Teams)' })).not.toBeInTheDocument();
    fireEvent.click(await screen.findByRole('switch', { name: 'For the whole organisation (managed by every admin)' }));
    expect(screen.queryByRole('checkbox', { name: 'My e-mail (E-mail)' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'E-mail me' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'All of IT (Microsoft Teams)' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Search name' }), { target: { value: 'Major changes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/saved-searches')?.body).toMatchObject({
      name: 'Major changes',
      channelIds: [5],
      scope: 'organisation',
    });
  });

  it('offers the organisation switch to admins only', async () => {
    stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser() } }, 'GET /api/alert-channels': { body: [teams] } });
    renderWithProviders(<SaveSearchDialog query={{}} editing={null} droppedSinceLastVisit={false} onClose={() => undefined} onSaved={() => undefined} />, {
      withAuthDialog: false,
    });
    expect(await screen.findByRole('checkbox', { name: 'IT Teams (Microsoft Teams)' })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: /For the whole organisation/ })).not.toBeInTheDocument();
  });

  it('shows the server message when saving fails', async () => {
    stubFetch({
      'GET /api/alert-channels': { body: [{ ...teams, kind: 'email', id: 2, name: 'My e-mail' }] },
      'POST /api/saved-searches': {
        status: 409,
        body: { error: { name: 'ConflictError', message: 'You already have 50 saved searches: delete one you no longer need first' } },
      },
    });
    renderWithProviders(<SaveSearchDialog query={{}} editing={null} droppedSinceLastVisit={false} onClose={() => undefined} onSaved={() => undefined} />, {
      withAuthDialog: false,
    });
    expect(await screen.findByRole('checkbox', { name: 'My e-mail (E-mail)' })).toBeChecked();
    fireEvent.change(screen.getByRole('textbox', { name: 'Search name' }), { target: { value: 'Everything' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0]).toMatchObject({
        title: 'Search not saved',
        description: 'You already have 50 saved searches: delete one you no longer need first',
        variant: 'destructive',
      }),
    );
  });
});
