import { afterEach, describe, expect, it, jest as jestApi } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { SIGNUP_SUCCESS_CLOSE_MS, useToastStore } from '@radar/shared-ui';
import { makeUser, renderWithProviders, stubFetch, type StubAnswer } from '@radar/shared-ui/test';
import { anonymousRoutes } from '../../test-utils/fixtures.js';
import { DigestSignupDialog, SIGNUP_FAILED_MESSAGE } from './DigestSignupDialog.js';

jestApi.setTimeout(30_000);

afterEach(() => {
  useToastStore.setState({ toasts: [] });
  jestApi.useRealTimers();
});

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open signup
      </button>
      <DigestSignupDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

const SIGNUP = 'POST /api/weekly-digest/signup';
const SERVER_MESSAGE = 'Almost done! Check your inbox and confirm your address with the link we sent you to receive the M365 Radar digest every Sunday.';
const ok: StubAnswer = { body: { success: true, message: SERVER_MESSAGE } };

function renderDialog(routes: Record<string, StubAnswer> = {}) {
  const stub = stubFetch({ ...anonymousRoutes, [SIGNUP]: ok, ...routes });
  renderWithProviders(<Harness />);
  return stub;
}

async function openDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Open signup' }));
  return screen.findByRole('dialog', { name: 'Sign Up for Weekly Digest' });
}

const input = (dialog: HTMLElement, name: RegExp) => within(dialog).getByRole('textbox', { name }) as HTMLInputElement;
const type = (dialog: HTMLElement, name: RegExp, value: string) => fireEvent.change(input(dialog, name), { target: { value } });

function fillAll(dialog: HTMLElement) {
  type(dialog, /First Name/, 'Grace');
  type(dialog, /Last Name/, 'Hopper');
  type(dialog, /Email/, 'grace@example.com');
}

describe('DigestSignupDialog', () => {
  it('labels every field and keeps Sign Up disabled while any field is empty', async () => {
    renderDialog();
    const dialog = await openDialog();
    const submit = within(dialog).getByRole('button', { name: 'Sign Up' });
    for (const name of [/First Name/, /Last Name/, /Email/]) expect(input(dialog, name)).toBeRequired();
    // Focus moves into the dialog (MUI's focus trap keeps it there).
    await waitFor(() => expect(input(dialog, /First Name/)).toHaveFocus());
    expect(submit).toBeDisabled();
    type(dialog, /First Name/, 'Grace');
    type(dialog, /Last Name/, 'Hopper');
    expect(submit).toBeDisabled();
    type(dialog, /Email/, '   ');
    expect(submit).toBeDisabled();
    type(dialog, /Email/, 'grace@example.com');
    expect(submit).toBeEnabled();
    type(dialog, /First Name/, '');
    expect(submit).toBeDisabled();
  });

  it('goes form → submitting → success, closes itself after 3 seconds and resets the fields', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { calls } = renderDialog();
    const stubbed = window.fetch;
    // Hold only the signup answer, so the submitting state can be seen.
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'POST' ? gate.then(() => stubbed(input, init)) : stubbed(input, init)) as typeof fetch;

    const dialog = await openDialog();
    // The visitor's session lookups finish on real timers; the timed part runs on fake ones.
    await waitFor(() => expect(calls.some((c) => c.url === '/api/auth/user')).toBe(true));
    await act(async () => {
      for (let i = 0; i < 20; i += 1) await Promise.resolve();
    });
    jestApi.useFakeTimers();
    fillAll(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Up' }));

    // Submitting: the fields and the button are disabled, and the button says so.
    expect(within(dialog).getByRole('button', { name: 'Signing Up...' })).toBeDisabled();
    expect(input(dialog, /Email/)).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();

    await act(async () => release());
    expect(await within(dialog).findByText('✓ Check your inbox')).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent(SERVER_MESSAGE);
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      url: '/api/weekly-digest/signup',
      method: 'POST',
      body: { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' },
    });

    act(() => {
      jestApi.advanceTimersByTime(SIGNUP_SUCCESS_CLOSE_MS - 1);
    });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    act(() => {
      jestApi.advanceTimersByTime(1);
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const reopened = await openDialog();
    expect(input(reopened, /First Name/)).toHaveValue('');
    expect(input(reopened, /Last Name/)).toHaveValue('');
    expect(input(reopened, /Email/)).toHaveValue('');
    expect(within(reopened).getByRole('button', { name: 'Sign Up' })).toBeDisabled();
  });

  it('toasts the server message on failure, without a field-name prefix, and keeps the form', async () => {
    renderDialog({
      [SIGNUP]: {
        status: 400,
        // The api's real 400: the message names the field, the first issue (issues[0]) carries the message alone.
        body: {
          error: {
            name: 'InputError',
            message: 'email: Please enter a valid email address',
            issues: [{ path: 'email', message: 'Please enter a valid email address' }],
          },
        },
      },
    });
    const dialog = await openDialog();
    fillAll(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Error', description: 'Please enter a valid email address', variant: 'destructive' }),
    );
    expect(within(dialog).getByRole('button', { name: 'Sign Up' })).toBeEnabled();
    expect(input(dialog, /Email/)).toHaveValue('grace@example.com');
  });

  it("toasts 'Failed to sign up. Please try again.' when the server sends no message", async () => {
    renderDialog({ [SIGNUP]: { status: 502 } });
    const dialog = await openDialog();
    fillAll(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Error', description: SIGNUP_FAILED_MESSAGE, variant: 'destructive' }),
    );
    expect(SIGNUP_FAILED_MESSAGE).toBe('Failed to sign up. Please try again.');
  });

  it('treats success false as a failure with its message', async () => {
    renderDialog({ [SIGNUP]: { body: { success: false, message: 'Signups are paused' } } });
    const dialog = await openDialog();
    fillAll(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(useToastStore.getState().toasts[0]).toMatchObject({ description: 'Signups are paused', variant: 'destructive' }));
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it('prefills the names and e-mail of a signed-in user', async () => {
    renderDialog({ 'GET /api/auth/session-user': { body: { user: makeUser({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }) } } });
    const dialog = await openDialog();
    await waitFor(() => expect(input(dialog, /First Name/)).toHaveValue('Ada'));
    expect(input(dialog, /Last Name/)).toHaveValue('Lovelace');
    expect(input(dialog, /Email/)).toHaveValue('ada@example.com');
    expect(within(dialog).getByRole('button', { name: 'Sign Up' })).toBeEnabled();
  });

  it('keeps typed values when cancelled, and Escape closes it', async () => {
    renderDialog();
    let dialog = await openDialog();
    type(dialog, /First Name/, 'Grace');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    dialog = await openDialog();
    expect(input(dialog, /First Name/)).toHaveValue('Grace');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
