import { describe, expect, it } from '@jest/globals';
import type { ListTriage } from '@radar/contracts';
import { triageCells } from './triage-cells.js';

const record = (over: Partial<ListTriage>): ListTriage => ({
  tenantId: null,
  state: 'new',
  ownerId: null,
  ownerName: null,
  dueDate: null,
  priority: 'low',
  closedReason: null,
  overdueFrom: null,
  ...over,
});

describe('triageCells', () => {
  it('shows the record, and says when an open one is overdue', () => {
    expect(triageCells([record({ state: 'in_progress', ownerName: 'Alice', dueDate: '2026-11-20' })], '2026-11-26')).toEqual({
      state: 'In progress',
      owner: 'Alice',
      due: '2026-11-20',
      overdue: true,
    });
    expect(triageCells([record({ state: 'done', dueDate: '2026-11-20' })], '2026-11-26')).toMatchObject({ owner: 'Unassigned', overdue: false });
    expect(triageCells(undefined, '2026-11-26')).toBeNull();
  });

  it('counts a due date as overdue only when it passed while the record was open, and names a record closed before tracking', () => {
    // A rollout start behind the record when it opened is not our lateness; one that passed after it is.
    expect(triageCells([record({ dueDate: '2026-11-01', overdueFrom: '2026-11-10' })], '2026-11-26')?.overdue).toBe(false);
    expect(triageCells([record({ dueDate: '2026-11-12', overdueFrom: '2026-11-10' })], '2026-11-26')?.overdue).toBe(true);
    expect(triageCells([record({ state: 'done', closedReason: 'before_tracking' })], '2026-11-26')?.state).toBe('Closed before tracking');
  });

  it('shows the most pressing tenant record first and counts the others', () => {
    const cells = triageCells(
      [
        record({ tenantId: 1, state: 'done', dueDate: '2026-11-01' }),
        record({ tenantId: 2, dueDate: '2026-12-24' }),
        record({ tenantId: 3, dueDate: '2026-12-01' }),
      ],
      '2026-11-26',
    );
    expect(cells).toEqual({ state: 'New (+2 tenants)', owner: 'Unassigned', due: '2026-12-01', overdue: false });
  });
});
