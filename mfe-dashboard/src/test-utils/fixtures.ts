import type { UnifiedItem } from '@radar/contracts';
import { makeMessageItem, makeRoadmapItem } from '@radar/shared-ui/test';

const CREATED = '2026-01-01T10:00:00.000Z';

export const roadmapItem = (overrides: Partial<UnifiedItem> = {}): UnifiedItem =>
  makeRoadmapItem({
    createdDate: CREATED,
    modifiedDate: CREATED,
    cloudInstances: 'Worldwide (Standard Multi-Tenant), GCC',
    platforms: 'Web, Desktop',
    releasePhase: 'General Availability',
    ...overrides,
  });

export const messageItem = (overrides: Partial<UnifiedItem> = {}): UnifiedItem =>
  makeMessageItem({ publishedDate: CREATED, lastUpdatedDate: CREATED, createdDate: CREATED, ...overrides });

export const anonymousRoutes = {
  'GET /api/auth/session-user': { body: { user: null } },
  'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Not signed in' } } },
};

/** A Service Health incident as the list answers it (resolved unless told otherwise). */
export const healthItem = (overrides: Partial<UnifiedItem> = {}): UnifiedItem =>
  makeMessageItem({
    id: 'health-EX1000001',
    source: 'health',
    messageId: null,
    issueId: 'EX1000001',
    isResolved: true,
    title: 'Users may be unable to access email via Outlook on the web',
    summary: 'Users may be unable to access email via Outlook on the web.',
    status: 'serviceRestored',
    category: 'incident',
    service: ['Exchange Online'],
    services: 'Exchange Online',
    tags: [],
    createdDate: '2026-11-02T07:40:00.000Z',
    publishedDate: '2026-11-02T07:40:00.000Z',
    lastUpdatedDate: '2026-11-02T14:45:00.000Z',
    modifiedDate: '2026-11-02T14:45:00.000Z',
    endDate: '2026-11-02T14:30:00.000Z',
    ...overrides,
  });
