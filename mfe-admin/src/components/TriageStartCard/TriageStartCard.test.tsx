import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TriageStartResponse } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch, type StubAnswer } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { TriageStartCard } from './TriageStartCard.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const startOf = (over: Partial<TriageStartResponse> = {}): TriageStartResponse => ({
  settings: { startWindowDays: 30, openUpcomingRoadmap: false },
  lines: [
    { tenantId: 3, tenantName: 'Contoso', from: '2026-11-01', open: 1234, closedBeforeTracking: 56 },
    { tenantId: null, tenantName: 'Records of no tenant', from: '2026-10-15', open: 7, closedBeforeTracking: 0 },
  ],
  ...over,
});

function mount(routes: Record<string, StubAnswer> = {}) {
  const stub = stubFetch({ ...adminSession, 'GET /api/triage/start': { body: startOf() }, ...routes });
  renderWithProviders(<TriageStartCard />);
  return stub;
}

const rowOf = async (name: string) => (await screen.findByRole('cell', { name })).closest('tr')!;
const posts = (calls: { method: string; url: string; body: unknown }[]) =>
  calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/triage/start')).map((c) => c.body);

describe('TriageStartCard', () => {
  it('lists each starting line with its day and its records open and closed before tracking', async () => {
    mount();
    expect(screen.getByRole('heading', { name: 'Starting line' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Starting lines' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Tenant', 'Starts from', 'Open', 'Closed before tracking', 'Actions']);
    const contoso = await rowOf('Contoso');
    expect(
      within(contoso)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Contoso', 'Nov 1, 2026', '1,234', '56', 'Move…']);
    const none = await rowOf('Records of no tenant');
    expect(
      within(none)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Records of no tenant', 'Oct 15, 2026', '7', '0', 'Move…']);
  });

  it('previews a move, then moves the line, toasts what it did and reads the lines again', async () => {
    let moved = false;
    const { calls } = mount({
      'GET /api/triage/start': () => ({
        body: moved ? startOf({ lines: [{ tenantId: 3, tenantName: 'Contoso', from: '2026-10-01', open: 1237, closedBeforeTracking: 55 }] }) : startOf(),
      }),
      'POST /api/triage/start': (init) => {
        const body = JSON.parse(String(init?.body)) as { preview: boolean };
        if (!body.preview) moved = true;
        return { body: { opens: body.preview ? 1 : 3, closes: body.preview ? 0 : 1, applied: !body.preview } };
      },
    });
    fireEvent.click(within(await rowOf('Contoso')).getByRole('button', { name: 'Move…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move the starting line of Contoso' });
    const date = within(dialog).getByLabelText('Start from');
    expect(date).toHaveValue('2026-11-01');
    expect(date).toHaveAttribute('max', new Date().toISOString().slice(0, 10));
    fireEvent.change(date, { target: { value: '2026-10-01' } });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('Moving the line to Oct 1, 2026 opens 1 record and closes 0.')).toBeInTheDocument();
    expect(posts(calls)).toEqual([{ tenantId: 3, from: '2026-10-01', preview: true }]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Move the line' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(calls)).toEqual([
      { tenantId: 3, from: '2026-10-01', preview: true },
      { tenantId: 3, from: '2026-10-01', preview: false },
    ]);
    expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Starting line moved: 3 opened, 1 closed' });
    expect(await screen.findByRole('cell', { name: 'Oct 1, 2026' })).toBeInTheDocument();
    expect(within(await rowOf('Contoso')).getByRole('cell', { name: '1,237' })).toBeInTheDocument();
  });

  it('moves the line of the records of no tenant with tenantId null', async () => {
    const { calls } = mount({ 'POST /api/triage/start': { body: { opens: 2, closes: 0, applied: false } } });
    fireEvent.click(within(await rowOf('Records of no tenant')).getByRole('button', { name: 'Move…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move the starting line of Records of no tenant' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('Moving the line to Oct 15, 2026 opens 2 records and closes 0.')).toBeInTheDocument();
    expect(posts(calls)).toEqual([{ tenantId: null, from: '2026-10-15', preview: true }]);
  });

  it('shows the server’s problem with the day under the field and keeps the dialog open', async () => {
    mount({
      'POST /api/triage/start': {
        status: 400,
        body: {
          error: {
            name: 'InputError',
            message: 'from must not be after today',
            issues: [{ path: 'from', message: 'The starting line cannot be after today' }],
          },
        },
      },
    });
    fireEvent.click(within(await rowOf('Contoso')).getByRole('button', { name: 'Move…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move the starting line of Contoso' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move the line' }));
    const date = within(dialog).getByLabelText('Start from');
    await waitFor(() => expect(date).toHaveAccessibleDescription('The starting line cannot be after today'));
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Move the starting line of Contoso' })).toBeInTheDocument();
    expect(useToastStore.getState().toasts[0]).toMatchObject({ variant: 'destructive' });
  });

  it('saves the settings with PUT and toasts', async () => {
    const { calls } = mount({
      'PUT /api/triage/settings': (init) => ({
        body: startOf({ settings: JSON.parse(String(init?.body)) as TriageStartResponse['settings'] }),
      }),
    });
    const form = await screen.findByRole('form', { name: 'Settings' });
    const days = within(form).getByRole('spinbutton', { name: 'Start window (days)' });
    expect(days).toHaveValue(30);
    expect(days).toHaveAccessibleDescription('A post whose act-by date lies up to this many days before the starting line still opens a record');
    fireEvent.change(days, { target: { value: '45' } });
    fireEvent.click(within(form).getByRole('switch', { name: 'Open a record for every upcoming roadmap item' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Triage settings saved' }));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ startWindowDays: 45, openUpcomingRoadmap: true }]);
  });

  it('shows the server’s problem with a setting under its field', async () => {
    const { calls } = mount({
      'PUT /api/triage/settings': {
        status: 400,
        body: {
          error: { name: 'InputError', message: 'startWindowDays: too far', issues: [{ path: 'startWindowDays', message: 'The window is too far back' }] },
        },
      },
    });
    const form = await screen.findByRole('form', { name: 'Settings' });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const days = within(form).getByRole('spinbutton', { name: 'Start window (days)' });
    await waitFor(() => expect(days).toHaveAccessibleDescription('The window is too far back'));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ startWindowDays: 30, openUpcomingRoadmap: false }]);
  });

  it('refuses a start window the API would refuse, before sending it', async () => {
    const { calls } = mount();
    const form = await screen.findByRole('form', { name: 'Settings' });
    const days = within(form).getByRole('spinbutton', { name: 'Start window (days)' });
    fireEvent.change(days, { target: { value: '-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('startWindowDays must be 0 or more')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});
