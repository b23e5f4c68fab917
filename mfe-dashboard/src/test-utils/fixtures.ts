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
