import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { DialogsProvider, useDialogs } from './DialogsProvider.js';

function Asker() {
  const dialogs = useDialogs();
  const [answer, setAnswer] = useState('none');
  return (
    <>
      <button
        onClick={async () =>
          setAnswer(String(await dialogs.confirm('Delete “CI”? Scripts using it stop working.', { title: 'Delete token', okText: 'Delete' })))
        }
      >
        Ask
      </button>
      <output>{answer}</output>
    </>
  );
}

const renderAsker = () =>
  render(
    <DialogsProvider>
      <Asker />
    </DialogsProvider>,
  );

describe('useDialogs().confirm', () => {
  it('resolves true when the user confirms, and the dialog names its title and question', async () => {
    renderAsker();
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete token' });
    expect(dialog).toHaveAccessibleDescription('Delete “CI”? Scripts using it stop working.');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('true')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('resolves false on Cancel and on Escape', async () => {
    renderAsker();
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('false')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }));
    await screen.findByRole('dialog', { name: 'Delete token' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('false')).toBeInTheDocument();
  });

  it('keeps the dialog open and both buttons disabled while the action runs, then resolves true', async () => {
    let finish: () => void = () => {};
    function Runner() {
      const dialogs = useDialogs();
      const [answer, setAnswer] = useState('none');
      const action = () => new Promise<void>((resolve) => (finish = resolve));
      return (
        <>
          <button
            onClick={async () =>
              setAnswer(String(await dialogs.confirm('Every session ends.', { title: 'Sign out?', okText: 'Sign out', busyText: 'Signing out...', action })))
            }
          >
            Ask
          </button>
          <output>{answer}</output>
        </>
      );
    }
    render(
      <DialogsProvider>
        <Runner />
      </DialogsProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(screen.getByRole('button', { name: 'Signing out...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByText('none')).toBeInTheDocument();
    finish();
    expect(await screen.findByText('true')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('needs a provider, and says so', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Asker />)).toThrow('useDialogs needs a DialogsProvider');
    spy.mockRestore();
  });
});
