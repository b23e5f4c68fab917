import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TriageRule } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { TriageRulesTab } from './TriageRulesTab.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const rule = (overrides: Partial<TriageRule> = {}): TriageRule => ({
  id: 1,
  name: 'GCC High to Ada',
  position: 1,
  enabled: true,
  query: {},
  setOwner: null,
  setState: null,
  setPriority: 'high',
  createTaskIn: null,
  updatedAt: '2026-03-05T14:30:00.000Z',
  ...overrides,
});

describe('TriageRulesTab', () => {
  it('adds a rule: shows a refused part of the view on its field, then saves and closes', async () => {
    let rules = [rule()];
    let refuse = true;
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/triage-rules': () => ({ body: { rules } }),
      'GET /api/admin/integrations': { body: { trackers: [] } },
      'GET /api/triage/people': { body: { people: [] } },
      'POST /api/triage-rules': (init) => {
        if (refuse) {
          refuse = false;
          return {
            status: 400,
            body: {
              error: { name: 'ValidationError', message: 'Invalid input', issues: [{ path: 'query.releaseMoved', message: 'releaseMoved must be true' }] },
            },
          };
        }
        const added = rule({ id: 2, name: (JSON.parse(String(init?.body)) as { name: string }).name, position: 2 });
        rules = [...rules, added];
        return { status: 201, body: added };
      },
    });
    renderWithProviders(<TriageRulesTab />);
    expect(await screen.findByText('GCC High to Ada')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a triage rule' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Moved releases' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('releaseMoved must be true')).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a triage rule' })).not.toBeInTheDocument());
    expect(await screen.findByText('Moved releases')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => (c.body as { name: string }).name)).toEqual(['Moved releases', 'Moved releases']);
  });
});
