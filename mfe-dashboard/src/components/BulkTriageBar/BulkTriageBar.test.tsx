import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { BulkTriageBar } from './BulkTriageBar.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

describe('Bulk triage bar', () => {
  it('pushes the chosen rows to a tracker, all at once', async () => {
    const { calls } = stubFetch({
      'GET /api/triage/trackers': { body: { targets: [{ id: 3, name: 'Change board', kind: 'jira' }] } },
      'POST /api/triage/bulk-tasks': { body: { queued: 2 } },
      'GET /api/triage/people': { body: { people: [] } },
    });
    const onClear = jest.fn();
    const targets = [
      { itemType: 'message-center' as const, itemId: 'MC1' },
      { itemType: 'message-center' as const, itemId: 'MC2', tenant: 4 },
    ];
    renderWithProviders(<BulkTriageBar targets={targets} rows={2} onClear={onClear} />);
    const push = await screen.findByRole('button', { name: 'Push 2 rows' });
    expect(push).toBeDisabled();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Create tasks in' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Change board' }));
    fireEvent.click(push);
    await waitFor(() => expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Tasks queued', description: '2 tasks go to Change board.' }));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ trackerId: 3, items: targets });
    expect(onClear).toHaveBeenCalled();
  });
});
