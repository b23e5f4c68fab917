import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DeleteIconButton } from './DeleteIconButton.js';

describe('DeleteIconButton', () => {
  it('is named by its label, shows its tooltip on hover and calls onClick', async () => {
    const onClick = jest.fn();
    render(<DeleteIconButton label="Delete role Auditor" tooltip="Delete role" onClick={onClick} />);
    const button = screen.getByRole('button', { name: 'Delete role Auditor' });
    await userEvent.hover(button);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Delete role');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
