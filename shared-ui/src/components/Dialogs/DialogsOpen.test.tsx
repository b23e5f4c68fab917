import { describe, expect, it } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { DialogsProvider, useDialogs, type DialogProps } from './DialogsProvider.js';

/** A dialog that answers with the name typed, or null on Cancel. */
function RenameDialog({ payload, open, onClose }: DialogProps<{ name: string }, string | null>) {
  const [name, setName] = useState(payload.name);
  if (!open) return null;
  return (
    <div role="dialog" aria-label={`Rename ${payload.name}`}>
      <input aria-label="New name" value={name} onChange={(event) => setName(event.target.value)} />
      <button onClick={() => onClose(null)}>Cancel</button>
      <button onClick={() => onClose(name)}>Save</button>
    </div>
  );
}

function Opener({ name }: { name: string }) {
  const dialogs = useDialogs();
  const [answer, setAnswer] = useState('none');
  return (
    <>
      <button onClick={async () => setAnswer(String(await dialogs.open(RenameDialog, { name })))}>{`Open ${name}`}</button>
      <output aria-label={`Answer for ${name}`}>{answer}</output>
    </>
  );
}

const renderOpeners = (...names: string[]) =>
  render(
    <DialogsProvider>
      {names.map((name) => (
        <Opener key={name} name={name} />
      ))}
    </DialogsProvider>,
  );

describe('useDialogs().open', () => {
  it('renders the component with its payload and resolves to what it closes with', async () => {
    renderOpeners('CI');
    await userEvent.click(screen.getByRole('button', { name: 'Open CI' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename CI' });
    expect(screen.getByLabelText('New name')).toHaveValue('CI');
    await userEvent.clear(screen.getByLabelText('New name'));
    await userEvent.type(screen.getByLabelText('New name'), 'Deploy');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(screen.getByLabelText('Answer for CI')).toHaveTextContent('Deploy');
  });

  it('resolves to the result of the dialog that closed, each opened dialog on its own', async () => {
    renderOpeners('CI', 'Backup');
    await userEvent.click(screen.getByRole('button', { name: 'Open CI' }));
    await userEvent.click(screen.getByRole('button', { name: 'Open Backup' }));
    const backup = await screen.findByRole('dialog', { name: 'Rename Backup' });
    await userEvent.click(within(backup).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByLabelText('Answer for Backup')).toHaveTextContent('null'));
    expect(screen.queryByRole('dialog', { name: 'Rename Backup' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Rename CI' })).toBeInTheDocument();
    expect(screen.getByLabelText('Answer for CI')).toHaveTextContent('none');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Answer for CI')).toHaveTextContent('CI'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
