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
