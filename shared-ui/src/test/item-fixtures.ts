import type { UnifiedItem } from '@radar/contracts';

/** A unified item with every field empty, to spread app-specific values over. */
export const emptyItem: UnifiedItem = {
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

/** A roadmap item (id follows itemId, 412345 unless overridden). */
export function makeRoadmapItem(overrides: Partial<UnifiedItem> = {}): UnifiedItem {
  const itemId = overrides.itemId ?? '412345';
  return {
    ...emptyItem,
    id: `roadmap-${itemId}`,
    itemId,
    title: 'Microsoft Teams: new meeting recap',
    description: 'Meeting recap for everyone.',
    status: 'In development',
    product: 'Microsoft Teams',
    releaseDate: 'March CY2026',
    ...overrides,
  };
}

/** A Message Center item (id follows messageId, MC1000001 unless overridden). */
export function makeMessageItem(overrides: Partial<UnifiedItem> = {}): UnifiedItem {
  const messageId = overrides.messageId ?? 'MC1000001';
  return {
    ...emptyItem,
    source: 'messages',
    id: `messages-${messageId}`,
    messageId,
    title: 'Retirement of legacy connectors',
    summary: 'Legacy connectors retire in June.',
    service: ['Exchange Online'],
    tags: ['Retirement'],
    ...overrides,
  };
}
