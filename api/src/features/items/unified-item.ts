import type { UnifiedItem } from '@radar/contracts';
import type { ItemRow } from '../../db/schema.js';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const joined = (list: string[]) => (list.length ? list.join(', ') : null);

/**
 * One `items` row → the unified list row (spec 01 §3). Fields of the other source are null. Moderator notes are
 * internal: only included when the caller is a moderator or admin.
 */
export function toUnifiedItem(row: ItemRow, opts: { includeModeratorNotes?: boolean } = {}): UnifiedItem {
  const roadmap = row.source === 'roadmap';
  return {
    id: `${row.source}-${row.externalId}`,
    source: row.source,
    title: row.title,
    itemId: roadmap ? row.externalId : null,
    messageId: roadmap ? null : row.externalId,
    summary: row.summary,
    description: row.description,
    status: row.status,
    product: roadmap ? joined(row.products) : null,
    service: roadmap ? null : row.products,
    services: roadmap ? null : joined(row.products),
    tags: row.tags,
    userImpact: row.userImpact,
    adminImpact: row.adminImpact,
    isMajorChange: row.isMajorChange,
    isFeatured: row.isFeatured,
    releaseDate: row.releaseDate,
    previewDate: row.previewDate,
    createdDate: iso(row.createdDate),
    modifiedDate: roadmap ? iso(row.modifiedDate) : null,
    publishedDate: roadmap ? null : iso(row.createdDate),
    lastUpdatedDate: roadmap ? null : iso(row.modifiedDate),
    actionRequiredByDate: iso(row.actionRequiredBy),
    platforms: joined(row.platforms),
    cloudInstances: joined(row.cloudInstances),
    releasePhase: joined(row.releasePhases),
    category: row.category,
    severity: row.severity,
    value: null,
    bodyContent: row.bodyHtml,
    moreInfoLink: row.moreInfoLink,
    externalLinks: row.externalLinks,
    attachments: row.attachments,
    thirdPartyLinks: row.thirdPartyLinks,
    ...(opts.includeModeratorNotes ? { moderatorNotes: row.moderatorNotes } : {}),
    moderatedBy: row.moderatedBy,
    isRemoved: row.isRemoved,
  };
}
