import { describe, expect, it } from '@jest/globals';
import { contactRequest } from './contact.js';
import { signupRequest, verifyCodeRequest } from './auth.js';
import { itemListQuery, thirdPartyLink } from './items.js';
import { compareVersionsQuery } from './versions.js';
import { moderationUpdate } from './moderation.js';
import { roleInput, syncHistoryRecord, testNotificationRequest } from './admin.js';
import { heldSyncParams } from './held-sync.js';
import { FEED_FORMATS, SYNC_STATUSES } from './sync-status.js';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('sign-in contracts', () => {
  it('trims and lower-cases the e-mail', () => {
    expect(signupRequest.parse({ firstName: ' Ada ', lastName: 'L', email: '  Ada@Example.COM ' })).toEqual({
      firstName: 'Ada',
      lastName: 'L',
      email: 'ada@example.com',
    });
  });

  it('gives the field messages of docs/product', () => {
    expect(messages(signupRequest.safeParse({ firstName: '', lastName: ' ', email: 'nope' }))).toEqual([
      'firstName: First name is required',
      'lastName: Last name is required',
      'email: Please enter a valid email address',
    ]);
    expect(messages(verifyCodeRequest.safeParse({ email: 'a@b.co', code: '12345' }))).toEqual(['code: Verification code must be 6 digits']);
    expect(messages(verifyCodeRequest.safeParse({ email: 'a@b.co', code: '12a456' }))).toEqual(['code: Verification code must be 6 digits']);
    expect(verifyCodeRequest.safeParse({ email: 'a@b.co', code: '123456' }).success).toBe(true);
  });
});

describe('contact contract', () => {
  it('enforces the 2, 2 and 10 character minima with their field messages', () => {
    expect(messages(contactRequest.safeParse({ firstName: 'A', lastName: 'B', email: 'x', message: 'short' }))).toEqual([
      'firstName: First name must be at least 2 characters',
      'lastName: Last name must be at least 2 characters',
      'email: Please enter a valid email address',
      'message: Message must be at least 10 characters',
    ]);
  });
});

describe('item list query', () => {
  it('applies the defaults: page 1, 50 per page, newest created first', () => {
    expect(itemListQuery.parse({})).toMatchObject({ page: 1, limit: 50, sortField: 'createdDate', sortDirection: 'desc' });
  });

  it('reads lists from commas or repeated keys', () => {
    expect(itemListQuery.parse({ sources: 'roadmap,messages', products: ['Teams', ' Outlook '] })).toMatchObject({
      sources: ['roadmap', 'messages'],
      products: ['Teams', 'Outlook'],
    });
  });

  it('allows one new and one changed change type, never two of a group', () => {
    expect(itemListQuery.parse({ changeTypes: 'new_7days,changed_1_day' }).changeTypes).toEqual(['new_7days', 'changed_1_day']);
    expect(itemListQuery.safeParse({ changeTypes: 'new_7days,new_30days' }).success).toBe(false);
    expect(itemListQuery.safeParse({ changeTypes: 'new_365days' }).success).toBe(false);
  });

  it('reads the archive, date-slip and since-last-visit parameters', () => {
    expect(itemListQuery.parse({ includeRemoved: 'true', releaseMoved: '30days', sinceLastVisit: '1', sortField: 'releaseMoves' })).toMatchObject({
      includeRemoved: true,
      releaseMoved: '30days',
      sinceLastVisit: true,
      sortField: 'releaseMoves',
    });
    expect(messages(itemListQuery.safeParse({ releaseMoved: '90days' }))[0]).toMatch(/^releaseMoved: /);
    expect(messages(itemListQuery.safeParse({ includeRemoved: 'yes' }))[0]).toMatch(/^includeRemoved: /);
    expect(messages(itemListQuery.safeParse({ sinceLastVisit: 'maybe' }))[0]).toMatch(/^sinceLastVisit: /);
  });

  it('compare takes whole version numbers from 1, each named when bad', () => {
    expect(compareVersionsQuery.parse({})).toEqual({});
    expect(compareVersionsQuery.parse({ from: '2', to: '5' })).toEqual({ from: 2, to: 5 });
    expect(messages(compareVersionsQuery.safeParse({ from: '0' }))).toEqual(['from: from must be 1 or more']);
    expect(messages(compareVersionsQuery.safeParse({ to: 'x' }))).toEqual(['to: to must be a version number']);
  });

  it('names the bad field', () => {
    expect(messages(itemListQuery.safeParse({ limit: '5000' }))).toEqual(['limit: limit must be at most 1000']);
    expect(messages(itemListQuery.safeParse({ sources: 'roadmap,rss' }))[0]).toMatch(/^sources\.1: /);
    expect(itemListQuery.parse({ featured: 'true', moderatorFeatured: '0' })).toMatchObject({ featured: true, moderatorFeatured: false });
  });
});

describe('moderation contracts', () => {
  it('accepts only http(s) links of the third-party link types, defaulting to other', () => {
    expect(thirdPartyLink.parse({ title: 'Video', url: 'https://example.com/v' }).type).toBe('other');
    expect(thirdPartyLink.safeParse({ title: 'x', url: 'javascript:alert(1)' }).success).toBe(false);
    expect(thirdPartyLink.safeParse({ title: 'x', url: 'ftp://example.com' }).success).toBe(false);
    expect(thirdPartyLink.safeParse({ title: 'x', url: 'https://e.com', type: 'podcast' }).success).toBe(false);
    expect(thirdPartyLink.safeParse({ title: ' ', url: 'https://e.com' }).success).toBe(false);
  });

  it('requires the featured flag and defaults notes to empty', () => {
    expect(moderationUpdate.parse({ isFeatured: true, thirdPartyLinks: [] }).moderatorNotes).toBe('');
    expect(messages(moderationUpdate.safeParse({ thirdPartyLinks: [] }))).toEqual(['isFeatured: isFeatured must be true or false']);
  });
});

describe('admin contracts', () => {
  it('requires a role name', () => {
    expect(messages(roleInput.safeParse({ name: '  ' }))).toEqual(['name: Role name is required']);
    expect(roleInput.parse({ name: 'Auditor' }).permissions).toEqual([]);
  });

  it('asks for item id and item type together', () => {
    expect(messages(testNotificationRequest.safeParse({ itemId: '' }))).toEqual([
      'itemId: Please fill in Item ID and Item Type',
      'itemType: Please fill in Item ID and Item Type',
    ]);
  });
});

describe('held sync contracts', () => {
  it('reads the id from the path and names it when it is not a positive integer', () => {
    expect(heldSyncParams.parse({ id: '42' })).toEqual({ id: 42 });
    for (const id of ['abc', '0', '-3', '1.5']) {
      const result = heldSyncParams.safeParse({ id });
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]).toMatchObject({ path: ['id'], message: 'id must be a sync history id' });
    }
  });

  it('accepts every sync status and feed format the api records', () => {
    const run = {
      id: 1,
      syncDate: '2026-02-07T00:40:00.000Z',
      finishedAt: null,
      syncSource: 'roadmap',
      trigger: 'schedule',
      success: false,
      itemsProcessed: 0,
      totalItems: 0,
      newItems: 0,
      changedItems: 0,
      removedItems: 0,
      restoredItems: 0,
      expiredInFeed: 0,
      changedExpired: 0,
      errorMessage: null,
      note: null,
      held: null,
      warning: null,
      drift: null,
      tenant: null,
    };
    for (const status of SYNC_STATUSES) expect(syncHistoryRecord.safeParse({ ...run, status, feedFormat: 'rss' }).success).toBe(true);
    for (const feedFormat of FEED_FORMATS) expect(syncHistoryRecord.safeParse({ ...run, status: 'success', feedFormat }).success).toBe(true);
    expect(syncHistoryRecord.safeParse({ ...run, status: 'paused', feedFormat: null }).success).toBe(false);
  });
});
