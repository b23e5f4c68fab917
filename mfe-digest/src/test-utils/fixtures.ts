import type { FeaturedItem, UnifiedItem, WeeklyDigestResponse } from '@radar/contracts';
import { makeMessageItem, makeRoadmapItem } from '@radar/shared-ui/test';

const ROADMAP_CREATED = '2026-03-02T10:00:00.000Z';
const MESSAGE_CREATED = '2026-03-03T10:00:00.000Z';

export const roadmapItem = (overrides: Partial<UnifiedItem> = {}): UnifiedItem =>
  makeRoadmapItem({ createdDate: ROADMAP_CREATED, modifiedDate: ROADMAP_CREATED, ...overrides });

export const messageItem = (overrides: Partial<UnifiedItem> = {}): UnifiedItem =>
  makeMessageItem({ publishedDate: MESSAGE_CREATED, lastUpdatedDate: MESSAGE_CREATED, createdDate: MESSAGE_CREATED, ...overrides });

export function featured(n: number): FeaturedItem {
  return {
    source: 'roadmap',
    id: `roadmap-${900 + n}`,
    itemId: String(900 + n),
    messageId: null,
    title: `Featured ${n}`,
    description: `Featured description ${n}`,
    summary: null,
    product: 'Microsoft Teams',
    services: null,
    status: 'Rolling out',
  };
}

export const WEEK_RANGE: WeeklyDigestResponse['weekRange'] = {
  start: '2026-03-01T08:00:00.000Z',
  end: '2026-03-08T08:00:00.000Z',
  startFormatted: 'Mar 1, 2026',
  endFormatted: 'Mar 8, 2026',
  nextUpdateFormatted: 'Sunday, Mar 15, 2026 at 8:00 AM UTC',
};

export function weeklyDigest(
  parts: Partial<{ roadmapNew: UnifiedItem[]; roadmapChanged: UnifiedItem[]; messagesNew: UnifiedItem[]; messagesUpdated: UnifiedItem[] }> = {},
): WeeklyDigestResponse {
  return {
    weekRange: WEEK_RANGE,
    roadmap: { newItems: parts.roadmapNew ?? [], changedItems: parts.roadmapChanged ?? [] },
    messageCenter: { newItems: parts.messagesNew ?? [], updatedItems: parts.messagesUpdated ?? [] },
  };
}

export const anonymousRoutes = {
  'GET /api/auth/session-user': { body: { user: null } },
  'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Not signed in' } } },
};
