import crypto from 'node:crypto';
import type { MessageAttachment } from '@radar/contracts';
import type { ItemRow, NewItemRow } from '../../db/schema/index.js';
import type { HealthRecord, MessageRecord, RoadmapRecord, SourceName } from '../../sources/types.js';
import {
  HEALTH_FIELDS,
  HEALTH_NEW_FIELDS,
  MESSAGE_FIELDS,
  MESSAGE_NEW_FIELDS,
  ROADMAP_FIELDS,
  ROADMAP_NEW_FIELDS,
  stableJson,
  type FieldDiff,
  type TrackedField,
} from './fields.js';
import { healthDerived, messageDerived, roadmapDerived } from './derived-fields.js';
import { reconcileHealthRecords } from './health-posts.repo.js';
import type { DbOrTx } from '../../db/client.js';
import { reconcileMessageRecords } from './lossy-reconcile.js';
import { releaseMoveColumns, timingMoveColumns } from './release-moves.js';
import { messageTiming } from '../../sources/rollout-timing.js';

/**
 * Mapping between our records and rows of the shared `items` table, and the content hash that lets a re-sync skip
 * unchanged items without reading their bodies. Only feed columns appear here: curation columns (isFeatured,
 * thirdPartyLinks, moderatorNotes, moderatedBy…) are never written by a sync.
 */

export type ItemSource = 'roadmap' | 'messages' | 'health';
export { SYNC_SOURCE_LABELS } from '@radar/contracts';
const ITEM_SOURCE: Record<SourceName, ItemSource> = { roadmap: 'roadmap', message_center: 'messages', service_health: 'health' };
export const itemSourceOf = (source: SourceName): ItemSource => ITEM_SOURCE[source];

export interface SourceAdapter<R> {
  source: SourceName;
  itemSource: ItemSource;
  fields: TrackedField<R>[];
  /** The fields a 'new' history entry shows. */
  newFields: string[];
  /**
   * The item stays live when the feed no longer lists it (Service Health: Microsoft drops an issue after 7 or 30 days,
   * we keep it). A snapshot then removes nothing, so no snapshot guard applies either.
   */
  keepsUnlisted?: boolean;
  externalId(record: R): string;
  /** False for a message whose endDateTime has passed: it is kept but marked removed (expired). */
  isActive(record: R, now: Date): boolean;
  /** The feed's own change marker; a difference here alone updates the row but writes no history. */
  modifiedDate(record: R): Date | null;
  toRow(record: R): Omit<NewItemRow, 'source'>;
  fromRow(row: ItemRow): R;
  /** Columns derived from a recorded change (the roadmap's date-slip counters), given the row before it. */
  changeColumns?(diff: FieldDiff, previous: ItemRow, now: Date): Partial<NewItemRow>;
  /**
   * Completes records from the stored rows before they are compared, whatever fetched them (the Graph client, a held
   * snapshot, a file): posts whose attachment list was not read keep the stored one.
   */
  reconcile?(tx: DbOrTx, records: R[]): Promise<R[]>;
  /** Roadmap ids this record links to (messages only). */
  roadmapLinks?(record: R): { roadmapExternalId: string; origin: 'details' | 'body' }[];
}

export function contentHash<R>(fields: TrackedField<R>[], record: R): string {
  const values = fields.map((f) => {
    const v = f.value(record);
    return f.unordered && Array.isArray(v) ? v.map((x) => stableJson(x)).sort() : v;
  });
  return crypto.createHash('sha256').update(stableJson(values)).digest('base64url');
}

export const roadmapAdapter: SourceAdapter<RoadmapRecord> = {
  source: 'roadmap',
  itemSource: 'roadmap',
  fields: ROADMAP_FIELDS,
  newFields: ROADMAP_NEW_FIELDS,
  externalId: (r) => String(r.itemId),
  isActive: () => true,
  modifiedDate: (r) => r.modifiedDate,
  changeColumns: releaseMoveColumns,
  toRow: (r) => ({
    externalId: String(r.itemId),
    title: r.title,
    description: r.description,
    status: r.status,
    products: r.products,
    tags: r.tags,
    cloudInstances: r.cloudInstances,
    releasePhases: r.releasePhase,
    platforms: r.platforms,
    releaseDate: r.releaseDate,
    previewDate: r.previewDate,
    moreInfoLink: r.moreInfoLink,
    createdDate: r.createdDate,
    modifiedDate: r.modifiedDate,
    contentHash: contentHash(ROADMAP_FIELDS, r),
    raw: r.raw ?? null,
    ...roadmapDerived(r.releaseDate),
  }),
  fromRow: (row) => ({
    itemId: Number(row.externalId),
    title: row.title,
    description: row.description ?? '',
    moreInfoLink: row.moreInfoLink,
    releaseDate: row.releaseDate,
    previewDate: row.previewDate,
    status: row.status,
    products: row.products,
    cloudInstances: row.cloudInstances,
    platforms: row.platforms,
    releasePhase: row.releasePhases,
    tags: row.tags,
    createdDate: row.createdDate ?? new Date(0),
    modifiedDate: row.modifiedDate ?? row.createdDate ?? new Date(0),
  }),
};

export const messageAdapter: SourceAdapter<MessageRecord> = {
  source: 'message_center',
  itemSource: 'messages',
  fields: MESSAGE_FIELDS,
  newFields: MESSAGE_NEW_FIELDS,
  externalId: (m) => m.messageId,
  // Graph returns only active messages; an expired one in a recorded file is stored but marked removed.
  isActive: (m, now) => !m.endDate || m.endDate.getTime() > now.getTime(),
  modifiedDate: (m) => m.lastUpdatedDate,
  changeColumns: timingMoveColumns,
  reconcile: reconcileMessageRecords,
  toRow: (m) => ({
    externalId: m.messageId,
    title: m.title,
    summary: m.summary,
    bodyHtml: m.bodyContent,
    products: m.services,
    tags: m.tags,
    platforms: m.platforms,
    createdDate: m.publishedDate,
    modifiedDate: m.lastUpdatedDate,
    category: m.category,
    severity: m.severity,
    isMajorChange: m.isMajorChange,
    userImpact: m.userImpact,
    adminImpact: m.adminImpact,
    actionRequiredBy: m.actionRequiredByDate,
    endDate: m.endDate,
    roadmapIds: m.roadmapIds.map(String),
    externalLinks: m.externalLinks,
    featureStatus: m.featureStatus ?? null,
    hasAttachments: m.hasAttachments,
    attachments: m.attachments,
    contentHash: contentHash(MESSAGE_FIELDS, m),
    raw: m.raw ?? null,
    ...messageDerived(m.timing),
  }),
  fromRow: (row) => ({
    messageId: row.externalId,
    title: row.title,
    summary: row.summary,
    bodyContent: row.bodyHtml ?? '',
    category: row.category,
    severity: row.severity,
    tags: row.tags,
    services: row.products,
    isMajorChange: row.isMajorChange,
    userImpact: row.userImpact,
    adminImpact: row.adminImpact,
    hasAttachments: row.hasAttachments,
    publishedDate: row.createdDate,
    lastUpdatedDate: row.modifiedDate,
    endDate: row.endDate,
    actionRequiredByDate: row.actionRequiredBy,
    platforms: row.platforms,
    roadmapIds: row.roadmapIds.map(Number),
    detailRoadmapIds: [],
    externalLinks: row.externalLinks,
    featureStatus: row.featureStatus ?? null,
    // Derived again from the stored body, so a better reading of bodies never shows up as a change of the post.
    timing: messageTiming(row.bodyHtml ?? '', row.createdDate),
    attachments: (row.attachments ?? []) as MessageAttachment[],
  }),
  roadmapLinks: (m) => m.roadmapIds.map((id) => ({ roadmapExternalId: String(id), origin: m.detailRoadmapIds.includes(id) ? 'details' : 'body' })),
};

export const healthAdapter: SourceAdapter<HealthRecord> = {
  source: 'service_health',
  itemSource: 'health',
  fields: HEALTH_FIELDS,
  newFields: HEALTH_NEW_FIELDS,
  keepsUnlisted: true,
  externalId: (h) => h.issueId,
  isActive: () => true,
  modifiedDate: (h) => h.lastModifiedDate,
  // Posts are only ever added: one Microsoft no longer lists is kept from the stored issue.
  reconcile: reconcileHealthRecords,
  toRow: (h) => ({
    externalId: h.issueId,
    title: h.title,
    summary: h.summary,
    // Every update, newest first, so the search finds words of any of them.
    bodyHtml: [...h.posts]
      .reverse()
      .map((p) => p.html)
      .join('\n<hr>\n'),
    status: h.status,
    products: h.services,
    category: h.classification,
    feature: h.feature,
    featureGroup: h.featureGroup,
    isResolved: h.isResolved,
    createdDate: h.startDate,
    modifiedDate: h.lastModifiedDate,
    endDate: h.endDate,
    healthPosts: h.posts,
    contentHash: contentHash(HEALTH_FIELDS, h),
    raw: h.raw ?? null,
    ...healthDerived(),
  }),
  fromRow: (row) => ({
    issueId: row.externalId,
    title: row.title,
    summary: row.summary,
    classification: row.category,
    origin: originOf(row.raw),
    status: row.status,
    services: row.products,
    feature: row.feature,
    featureGroup: row.featureGroup,
    isResolved: row.isResolved,
    startDate: row.createdDate,
    endDate: row.endDate,
    lastModifiedDate: row.modifiedDate,
    posts: row.healthPosts ?? [],
  }),
};

/** Graph `origin` as the stored record says (it has no column of its own). */
function originOf(raw: unknown): string | null {
  const origin = raw && typeof raw === 'object' ? (raw as { origin?: unknown }).origin : null;
  return typeof origin === 'string' && origin.trim() ? origin.trim() : null;
}
