import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ConfirmDialog } from './ConfirmDialog.js';

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
});
