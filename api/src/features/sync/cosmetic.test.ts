import { describe, expect, it } from '@jest/globals';
import { isCosmeticChange, type HistoryChange } from './cosmetic.js';

const change = (field: string, before: unknown, after: unknown, extra: Partial<HistoryChange> = {}): HistoryChange => ({
  changeType: 'changed',
  changedFields: [field],
  previousValues: { [field]: before },
  newValues: { [field]: after },
  ...extra,
});

describe('cosmetic edits (only whitespace, punctuation or letter case)', () => {
  it.each([
    ['title', 'Microsoft 365 Admin Center: Usage reports', 'Microsoft 365 admin center: usage reports'],
    ['title', 'Teams: Live  translation in chat', 'Teams: Live translation in chat.'],
    ['description', 'Admins get usage reports for agents', 'Admins get usage-reports for agents!'],
    ['bodyContent', '<p>Rollout begins <b>mid-November</b>.</p>', '<div>Rollout begins mid November</div>'],
    ['bodyContent', '<p>Coming&nbsp;soon</p>', '<p>Coming soon</p>'],
    ['releaseDate', 'March CY2026', 'March CY 2026'],
    ['tags', ['Admin Impact', 'New feature'], ['new feature', 'Admin impact']],
    ['summary', null, ''],
  ])('%s: %j → %j is cosmetic', (field, before, after) => {
    expect(isCosmeticChange(change(field, before, after))).toBe(true);
  });

  it.each([
    ['title', 'Teams: Live translation', 'Teams: Live translation in chat'],
    ['status', 'In development', 'Rolling out'],
    ['releaseDate', 'March CY2026', 'April CY2026'],
    ['endDate', '2026-03-01T07:00:00.000Z', '2026-04-01T07:00:00.000Z'],
    ['isMajorChange', false, true],
    ['externalLinks', [{ name: 'A', url: 'https://a' }], [{ name: 'a', url: 'https://a' }]],
    ['tags', ['Admin impact'], ['Admin impact', 'New feature']],
    ['description', 'Rollout in 2026', 'Rollout in 2027'],
  ])('%s: %j → %j is a real change', (field, before, after) => {
    expect(isCosmeticChange(change(field, before, after))).toBe(false);
  });

  it('needs every changed field to be cosmetic; removals, returns and first sightings never are', () => {
    const both: HistoryChange = {
      changeType: 'changed',
      changedFields: ['title', 'status'],
      previousValues: { title: 'A b', status: 'In development' },
      newValues: { title: 'a B', status: 'Launched' },
    };
    expect(isCosmeticChange(both)).toBe(false);
    expect(
      isCosmeticChange({ changeType: 'removed', changedFields: ['isRemoved'], previousValues: { isRemoved: false }, newValues: { isRemoved: true } }),
    ).toBe(false);
    expect(isCosmeticChange(change('isRemoved', true, false))).toBe(false);
    expect(isCosmeticChange({ changeType: 'new', changedFields: [], previousValues: {}, newValues: { title: 'x' } })).toBe(false);
    expect(isCosmeticChange({ changeType: 'changed', changedFields: [], previousValues: {}, newValues: {} })).toBe(false);
  });
});
