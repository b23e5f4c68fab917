import type { UnifiedItem } from '@radar/contracts';

const base: UnifiedItem = {
  id: '',
  source: 'roadmap',
  title: '',
  itemId: null,
  messageId: null,
  summary: null,
  description: null,
  status: null,
  product: null,
  service: null,
  services: null,
  tags: [],
  userImpact: false,
  adminImpact: false,
  isMajorChange: false,
  isFeatured: false,
  releaseDate: null,
  createdDate: null,
  modifiedDate: null,
  publishedDate: null,
  lastUpdatedDate: null,
  platforms: null,
  cloudInstances: null,
  releasePhase: null,
  value: null,
  bodyContent: null,
  attachments: [],
  thirdPartyLinks: [],
  moderatorNotes: null,
  moderatedBy: null,
};

export function roadmapItem(overrides: Partial<UnifiedItem> = {}): UnifiedItem {
  const itemId = overrides.itemId ?? '412345';
  return {
    ...base,
    id: `roadmap-${itemId}`,
    itemId,
    title: 'Microsoft Teams: new meeting recap',
    description: 'Meeting recap for everyone.',
    status: 'In development',
    product: 'Microsoft Teams',
    releaseDate: 'March CY2026',
    createdDate: '2026-01-01T10:00:00.000Z',
    modifiedDate: '2026-01-01T10:00:00.000Z',
    cloudInstances: 'Worldwide (Standard Multi-Tenant), GCC',
    platforms: 'Web, Desktop',
    releasePhase: 'General Availability',
    ...overrides,
  };
}

export function messageItem(overrides: Partial<UnifiedItem> = {}): UnifiedItem {
  const messageId = overrides.messageId ?? 'MC1000001';
  return {
    ...base,
    source: 'messages',
    id: `messages-${messageId}`,
    messageId,
    title: 'Retirement of legacy connectors',
    summary: 'Legacy connectors retire in June.',
    service: ['Exchange Online'],
    tags: ['Retirement'],
    publishedDate: '2026-01-01T10:00:00.000Z',
    lastUpdatedDate: '2026-01-01T10:00:00.000Z',
    createdDate: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export const anonymousRoutes = {
  'GET /api/auth/session-user': { body: { user: null } },
  'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Not signed in' } } },
};
