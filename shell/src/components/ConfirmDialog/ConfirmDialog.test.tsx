import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ConfirmDialog, useConfirm } from './ConfirmDialog.js';

describe('ConfirmDialog', () => {
  const props = { title: 'Delete “Teams Rooms”?', text: 'Its alerts stop. This cannot be undone.', confirmLabel: 'Delete' };

  it('is a dialog named by its title that confirms or cancels', () => {
    const onConfirm = jest.fn();
    const onClose = jest.fn();
    render(<ConfirmDialog open {...props} onConfirm={onConfirm} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete “Teams Rooms”?' });
    expect(dialog).toHaveTextContent('Its alerts stop. This cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape and is gone once closed', async () => {
    const onClose = jest.fn();
    const { rerender } = render(<ConfirmDialog open {...props} onConfirm={() => undefined} onClose={onClose} />);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(<ConfirmDialog open={false} {...props} onConfirm={() => undefined} onClose={onClose} />);
    // After MUI's exit transition.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('useConfirm: ask opens the dialog for a target, Cancel closes it, the confirm button closes it and runs the action on that target', async () => {
    const action = jest.fn<(name: string) => void>();
    function Card() {
      const deleting = useConfirm(action);
      return (
        <>
          <button onClick={() => deleting.ask('Teams Rooms')}>Delete Teams Rooms</button>
          <ConfirmDialog {...deleting.dialog} title={`Delete “${deleting.target ?? ''}”?`} text="Its alerts stop." confirmLabel="Delete" />
        </>
      );
    }
    render(<Card />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Teams Rooms' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete “Teams Rooms”?' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(action).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Teams Rooms' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete “Teams Rooms”?' })).getByRole('button', { name: 'Delete' }));
    expect(action).toHaveBeenCalledWith('Teams Rooms');
    expect(action).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
