import { describe, expect, it } from '@jest/globals';
import { displayTags, formatServices, isNewItem, isUpdatedItem, itemSource, roadmapStatusColor } from './item-rules.js';

// Fixed clock: every window below is measured from this moment.
const NOW = new Date('2026-03-15T12:00:00.000Z');
const daysAgo = (days: number, extraMs = 0) => new Date(NOW.getTime() - days * 86_400_000 - extraMs).toISOString();
const HOUR = 3_600_000;

describe('isNewItem', () => {
  it('counts a roadmap item created within the last 7 days', () => {
    expect(isNewItem({ source: 'roadmap', createdDate: daysAgo(6) }, NOW)).toBe(true);
    expect(isNewItem({ source: 'roadmap', createdDate: daysAgo(7) }, NOW)).toBe(true);
    expect(isNewItem({ source: 'roadmap', createdDate: daysAgo(7, 1) }, NOW)).toBe(false);
  });
  it('uses the publication date for messages, inferring the source from messageId', () => {
    expect(isNewItem({ messageId: 'MC1', publishedDate: daysAgo(1), createdDate: daysAgo(30) }, NOW)).toBe(true);
    expect(isNewItem({ messageId: 'MC1', publishedDate: daysAgo(8) }, NOW)).toBe(false);
    expect(itemSource({ messageId: 'MC1' })).toBe('messages');
    expect(itemSource({})).toBe('roadmap');
  });
  it('is false without a date', () => {
    expect(isNewItem({ source: 'roadmap', createdDate: null }, NOW)).toBe(false);
  });
});

describe('isUpdatedItem', () => {
  it('message: last update at least 1 hour after publication and within 7 days', () => {
    const published = daysAgo(20);
    expect(isUpdatedItem({ source: 'messages', publishedDate: published, lastUpdatedDate: daysAgo(2) }, NOW)).toBe(true);
    expect(isUpdatedItem({ source: 'messages', publishedDate: published, lastUpdatedDate: daysAgo(8) }, NOW)).toBe(false);
  });
  it('message: an update less than 1 hour after publication is not an update', () => {
    const published = daysAgo(1);
    const at = (ms: number) => new Date(new Date(published).getTime() + ms).toISOString();
    expect(isUpdatedItem({ source: 'messages', publishedDate: published, lastUpdatedDate: at(HOUR - 1) }, NOW)).toBe(false);
    expect(isUpdatedItem({ source: 'messages', publishedDate: published, lastUpdatedDate: at(HOUR) }, NOW)).toBe(true);
  });
  it('roadmap: created over 7 days ago, modified within 7 days and after creation', () => {
    expect(isUpdatedItem({ source: 'roadmap', createdDate: daysAgo(30), modifiedDate: daysAgo(3) }, NOW)).toBe(true);
    expect(isUpdatedItem({ source: 'roadmap', createdDate: daysAgo(5), modifiedDate: daysAgo(1) }, NOW)).toBe(false);
    expect(isUpdatedItem({ source: 'roadmap', createdDate: daysAgo(30), modifiedDate: daysAgo(10) }, NOW)).toBe(false);
    expect(isUpdatedItem({ source: 'roadmap', createdDate: daysAgo(3), modifiedDate: daysAgo(3) }, NOW)).toBe(false);
    expect(isUpdatedItem({ source: 'roadmap', createdDate: null, modifiedDate: daysAgo(1) }, NOW)).toBe(false);
  });
});

describe('displayTags', () => {
  it('drops New/Updated message and puts impact and major change first', () => {
    const tags = displayTags({
      tags: ['Retirement', 'Updated message', 'New message', 'Admin impact'],
      userImpact: true,
      isMajorChange: true,
    });
    expect(tags.all).toEqual(['USER IMPACT', 'ADMIN IMPACT', 'Major change', 'Retirement']);
    expect(tags.visible).toEqual(['USER IMPACT', 'ADMIN IMPACT']);
    expect(tags.hiddenCount).toBe(2);
  });
  it('reads the impact tags and flags alike, without duplicates', () => {
    expect(displayTags({ tags: ['User impact', 'Major change'], adminImpact: true }).all).toEqual(['USER IMPACT', 'ADMIN IMPACT', 'Major change']);
  });
  it('shows at most 2 and no count when they fit', () => {
    expect(displayTags({ tags: ['A', 'B'] })).toEqual({ visible: ['A', 'B'], hiddenCount: 0, all: ['A', 'B'] });
    expect(displayTags({ tags: undefined }).visible).toEqual([]);
  });
});

describe('roadmapStatusColor', () => {
  it.each([
    ['In development', 'blue'],
    ['ROLLING OUT', 'green'],
    ['launched', 'grey'],
    ['Cancelled', 'red'],
    ['Preview', 'default'],
    [null, 'default'],
  ])('%s is %s', (status, color) => {
    expect(roadmapStatusColor(status)).toBe(color);
  });
});

describe('formatServices', () => {
  it('shows the first 3 then ", +N more"', () => {
    expect(formatServices(['Teams', 'Exchange', 'SharePoint', 'OneDrive', 'Viva'])).toBe('Teams, Exchange, SharePoint, +2 more');
    expect(formatServices('Teams, Exchange')).toBe('Teams, Exchange');
    expect(formatServices(null)).toBe('');
  });
});
