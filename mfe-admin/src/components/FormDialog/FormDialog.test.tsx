import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FormDialog } from './FormDialog.js';

const renderDialog = (props: Partial<Parameters<typeof FormDialog>[0]> = {}) => {
  const onSave = jest.fn();
  const onCancel = jest.fn();
  render(
    <FormDialog title="Add a tenant" intro="An Entra app registered in the tenant." busy={false} onSave={onSave} onCancel={onCancel} {...props}>
      <input aria-label="Name" />
    </FormDialog>,
  );
  return { onSave, onCancel };
};

describe('FormDialog', () => {
  it('is named by its title, shows its fields and answers Save and Cancel', async () => {
    const { onSave, onCancel } = renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Add a tenant' });
    expect(dialog).toHaveTextContent('An Entra app registered in the tenant.');
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('while busy says Saving... and neither button nor Escape acts', async () => {
    const { onCancel } = renderDialog({ busy: true });
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('names its save button as told, with a step of its own between Cancel and it', async () => {
    const onPreview = jest.fn();
    const { onSave } = renderDialog({
      saveText: 'Move the line',
      extraAction: (
        <button type="button" onClick={onPreview}>
          Preview
        </button>
      ),
    });
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Cancel', 'Preview', 'Move the line']);
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move the line' }));
    expect(onPreview).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it('shows the failure of the last save as an alert, and Save stays off while the form cannot be sent', () => {
    renderDialog({ error: 'A tenant named Contoso already exists', saveDisabled: true });
    expect(screen.getByRole('alert')).toHaveTextContent('A tenant named Contoso already exists');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });
});
