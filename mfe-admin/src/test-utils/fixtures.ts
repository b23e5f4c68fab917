import type { AppUser, Role, SyncHistoryRecord, UnifiedItem, UserRoleAssignment } from '@radar/contracts';
import { emptyItem, makeUser, type StubAnswer } from '@radar/shared-ui/test';

/** The signed-in admin, as the session call returns them. */
export const adminSession: Record<string, StubAnswer> = {
  'GET /api/auth/session-user': { body: { user: makeUser({ id: 1, email: 'admin@example.com', roles: [{ id: 1, name: 'Admin' }] }) } },
};

export const roles: Role[] = [
  { id: 1, name: 'Admin', description: 'Full access', permissions: ['admin', 'moderate', 'read', 'export'], isBuiltIn: true },
  { id: 2, name: 'Moderator', description: null, permissions: [], isBuiltIn: true },
  { id: 7, name: 'Auditor', description: 'Reads logs', permissions: ['read'], isBuiltIn: false },
];

export const users: AppUser[] = [
  { id: 1, firstName: 'Ada', lastName: 'Admin', email: 'admin@example.com', isEmailVerified: true, hasWeeklyDigestSubscription: true },
  { id: 2, firstName: 'Bob', lastName: 'Builder', email: 'bob@example.com', isEmailVerified: false, hasWeeklyDigestSubscription: false },
];

export const assignments: UserRoleAssignment[] = [
  { id: 11, userId: 1, roleId: 1, user: { id: 1, email: 'admin@example.com', firstName: 'Ada', lastName: 'Admin' }, role: { id: 1, name: 'Admin' } },
  { id: 12, userId: 2, roleId: 7, user: { id: 2, email: 'bob@example.com', firstName: 'Bob', lastName: 'Builder' }, role: { id: 7, name: 'Auditor' } },
];

export function syncRun(overrides: Partial<SyncHistoryRecord> = {}): SyncHistoryRecord {
  return {
    id: 1,
    syncDate: '2026-03-05T14:30:00.000Z',
    finishedAt: '2026-03-05T14:31:00.000Z',
    syncSource: 'roadmap',
    trigger: 'schedule',
    success: true,
    status: 'success',
    itemsProcessed: 120,
    totalItems: 120,
    newItems: 3,
    changedItems: 5,
    removedItems: 1,
    restoredItems: 0,
    expiredInFeed: 0,
    changedExpired: 0,
    errorMessage: null,
    feedFormat: 'json',
    note: null,
    held: null,
    warning: null,
    drift: null,
    tenant: null,
    ...overrides,
  };
}

export const roadmapItem = (overrides: Partial<UnifiedItem> = {}): UnifiedItem => ({
  ...emptyItem,
  id: 'roadmap-412345',
  itemId: '412345',
  title: 'Microsoft Teams: new meeting recap',
  product: 'Microsoft Teams',
  status: 'Rolling out',
  ...overrides,
});

export const messageItem = (overrides: Partial<UnifiedItem> = {}): UnifiedItem => ({
  ...emptyItem,
  id: 'messages-MC100',
  source: 'messages',
  messageId: 'MC100',
  title: 'Exchange Online: retirement of basic auth',
  service: ['Exchange Online', 'Microsoft Teams', 'SharePoint Online'],
  tags: ['Retirement', 'Admin impact', 'Feature update'],
  ...overrides,
});
