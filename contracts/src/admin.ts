import { z } from './zod.js';
import { errorBody, resultMessage } from './common.js';
import { ITEM_TYPES, IMPERSONATION_CHOICES, PRODUCT_FAMILIES, SOURCES, SYNC_SOURCES } from './constants.js';
import { FEED_FORMATS, heldSnapshotInfo, schemaDrift, SYNC_STATUSES } from './sync-status.js';

export const role = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  permissions: z.array(z.string()),
  isBuiltIn: z.boolean().optional(),
});
export type Role = z.infer<typeof role>;

export const roleInput = z.object({
  name: z.string({ error: 'Role name is required' }).trim().min(1, 'Role name is required').max(100),
  description: z.string().trim().max(500).nullable().optional(),
  permissions: z.array(z.string().trim().min(1)).max(100).default([]),
});
export type RoleInput = z.input<typeof roleInput>;

export const appUser = z.object({
  id: z.number().int(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  isEmailVerified: z.boolean(),
  hasWeeklyDigestSubscription: z.boolean(),
  lastLoginAt: z.string().nullable().optional(),
  createdAt: z.string().optional(),
});
export type AppUser = z.infer<typeof appUser>;

export const userRoleAssignment = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  roleId: z.number().int(),
  user: z.object({ id: z.number().int(), email: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable() }),
  role: z.object({ id: z.number().int(), name: z.string() }),
});
export type UserRoleAssignment = z.infer<typeof userRoleAssignment>;

export const assignRoleRequest = z.object({
  userId: z.coerce.number({ error: 'userId is required' }).int().positive('userId is required'),
  roleId: z.coerce.number({ error: 'roleId is required' }).int().positive('roleId is required'),
});

export const impersonationStatus = z.object({ isImpersonating: z.boolean(), impersonatedRole: z.string().nullable() });
export type ImpersonationStatus = z.infer<typeof impersonationStatus>;
export const impersonateRequest = z.object({ role: z.enum(IMPERSONATION_CHOICES).nullable() });

export const syncSourceName = z.enum(SYNC_SOURCES);
export type SyncSourceName = z.infer<typeof syncSourceName>;
export const syncHistoryRecord = z.object({
  id: z.number().int(),
  syncDate: z.string(),
  finishedAt: z.string().nullable(),
  syncSource: syncSourceName,
  trigger: z.string(),
  success: z.boolean(),
  status: z.enum(SYNC_STATUSES),
  itemsProcessed: z.number().int(),
  totalItems: z.number().int(),
  newItems: z.number().int(),
  changedItems: z.number().int(),
  removedItems: z.number().int(),
  restoredItems: z.number().int(),
  /**
   * Of `itemsProcessed` (records in the feed), those already expired (posts past their end date: stored in the archive,
   * not live), and of `changedItems` those expired (recorded, but in no digest, which lists live items).
   */
  expiredInFeed: z.number().int(),
  changedExpired: z.number().int(),
  errorMessage: z.string().nullable(),
  /** What the run read (roadmap json or its rss fallback, graph, a cli file, the demo set); null before the fetch. */
  feedFormat: z.enum(FEED_FORMATS).nullable(),
  /** Why a run ended as it did when that is not an error: the RSS fallback's reason, a hold's reason, a 304. */
  note: z.string().nullable(),
  /** Set on a `held` run that kept its snapshot for an admin (see held-sync.ts). */
  held: heldSnapshotInfo.nullable(),
  /**
   * Said once when the source a run read changed for the worse (the roadmap's preferred source stopped working and a
   * later one of its chain was read), with the reason; null otherwise.
   */
  warning: z.string().nullable(),
  /** Fields the snapshot's items carried that the format does not expect, or lacked (null: none, or not checked). */
  drift: schemaDrift.nullable(),
  /** The tenant a Message Center or Service Health run read (its name as it was then); null for the roadmap. */
  tenant: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type SyncHistoryRecord = z.infer<typeof syncHistoryRecord>;
export const syncHistoryResponse = z.object({ syncHistory: z.array(syncHistoryRecord) });
/**
 * A sync trigger's answer: the run it recorded. A Message Center trigger runs every enabled tenant: `sync` is the
 * first tenant's run and `runs` all of them (one per tenant), so one tenant's failure is seen beside the others.
 */
export const syncTriggerResponse = z.object({ message: z.string(), sync: syncHistoryRecord, runs: z.array(syncHistoryRecord).optional() });
/** A failed sync trigger (502 feed failed, 503 not configured) still answers with the run it recorded. */
export const syncTriggerErrorBody = errorBody.extend({ sync: syncHistoryRecord.optional() });
export type SyncTriggerErrorBody = z.infer<typeof syncTriggerErrorBody>;

export const productMapping = z.object({
  id: z.number().int(),
  sourceProduct: z.string(),
  dataSource: syncSourceName,
  displayName: z.string(),
  isActive: z.boolean(),
  /** The product's family: the admin's choice, else the rules' (`familySource` says which). */
  family: z.enum(PRODUCT_FAMILIES),
  familySource: z.enum(['rule', 'admin']),
  /** What the rules say, shown beside an admin's choice. */
  ruleFamily: z.enum(PRODUCT_FAMILIES),
  /**
   * The service plans that license the product: the admin's (`admin`), else the licence table's (`rule`); `always`: a
   * product every tenant has; `unknown`: no plan is known to license it (the licence filter keeps its items).
   */
  licence: z.object({ source: z.enum(['admin', 'rule', 'always', 'unknown']), plans: z.array(z.string()) }),
  updatedAt: z.string(),
});
export type ProductMapping = z.infer<typeof productMapping>;
export const productMappingUpdate = z
  .object({
    displayName: z.string().trim().min(1, 'displayName must not be empty').max(200).optional(),
    isActive: z.boolean().optional(),
    /** A family for the product, or null to let the rules decide again. */
    family: z
      .enum(PRODUCT_FAMILIES, { error: `family must be one of ${PRODUCT_FAMILIES.join(', ')}` })
      .nullable()
      .optional(),
    /**
     * The service plans (Graph servicePlanName; a trailing * for a prefix) that license the product, or null to let
     * the licence table decide again.
     */
    licencePlans: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_]+\*?$/, 'licencePlans must be service plan names (letters, digits, _; a trailing * for a prefix)'),
      )
      .min(1, 'licencePlans must name at least one service plan, or be null')
      .max(50, 'licencePlans may name at most 50 service plans')
      .nullable()
      .optional(),
  })
  .refine(
    (v) => v.displayName !== undefined || v.isActive !== undefined || v.family !== undefined || v.licencePlans !== undefined,
    'displayName, isActive, family or licencePlans is required',
  );

export const productBreakdownEntry = z.object({
  product: z.string(),
  total: z.number().int(),
  roadmapCount: z.number().int(),
  messageCenterCount: z.number().int(),
});
export const currentStatusAnalytics = z.object({ productBreakdown: z.array(productBreakdownEntry) });
export type CurrentStatusAnalytics = z.infer<typeof currentStatusAnalytics>;

export const generateSummaryRequest = z.object({ reportData: z.unknown().refine((v) => v !== undefined && v !== null, 'reportData is required') });
export const generateSummaryResponse = z.object({
  summary: z.string(),
  /** 'ai' when a chat-completions endpoint wrote it, 'extractive' for the server's own fallback. */
  kind: z.enum(['ai', 'extractive']),
  model: z.string().nullable(),
});

export const testNotificationRequest = z.object({
  itemId: z.string({ error: 'Please fill in Item ID and Item Type' }).trim().min(1, 'Please fill in Item ID and Item Type'),
  itemType: z.enum(ITEM_TYPES, { error: 'Please fill in Item ID and Item Type' }),
  changesSummary: z.string().max(5000).optional(),
});

/**
 * POST /api/admin/test-notification: `delivery` says whether the mail was handed to the SMTP server ('sent') or is
 * still in the outbox ('queued': no SMTP server configured, or the server did not take it yet; the outbox retries).
 */
export const testNotificationResponse = resultMessage.extend({ delivery: z.enum(['sent', 'queued']) });
export type TestNotificationResponse = z.infer<typeof testNotificationResponse>;

export const sourceEnum = z.enum(SOURCES);
export type SourceEnum = z.infer<typeof sourceEnum>;

export type AssignRoleRequest = z.input<typeof assignRoleRequest>;
export type ImpersonateRequest = z.input<typeof impersonateRequest>;
export type SyncHistoryResponse = z.infer<typeof syncHistoryResponse>;
export type SyncTriggerResponse = z.infer<typeof syncTriggerResponse>;
export type ProductMappingUpdate = z.input<typeof productMappingUpdate>;
export type ProductBreakdownEntry = z.infer<typeof productBreakdownEntry>;
export type GenerateSummaryRequest = z.input<typeof generateSummaryRequest>;
export type GenerateSummaryResponse = z.infer<typeof generateSummaryResponse>;
export type TestNotificationRequest = z.input<typeof testNotificationRequest>;

const positiveId = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a positive whole number` })
    .int(`${name} must be a positive whole number`)
    .positive(`${name} must be a positive whole number`);
/** DELETE /api/admin/user-roles/{userId}/{roleId}. */
export const roleAssignmentParams = z.object({ userId: positiveId('userId'), roleId: positiveId('roleId') });
export type RoleAssignmentParams = z.infer<typeof roleAssignmentParams>;

export const rolesResponse = z.array(role);
export type RolesResponse = z.infer<typeof rolesResponse>;
export const appUsersResponse = z.array(appUser);
export type AppUsersResponse = z.infer<typeof appUsersResponse>;
export const userRoleAssignmentsResponse = z.array(userRoleAssignment);
export type UserRoleAssignmentsResponse = z.infer<typeof userRoleAssignmentsResponse>;
export const productMappingsResponse = z.array(productMapping);
export type ProductMappingsResponse = z.infer<typeof productMappingsResponse>;
export const productMappingsInitializeResponse = z.object({ created: z.number().int(), total: z.number().int(), message: z.string() });
export type ProductMappingsInitializeResponse = z.infer<typeof productMappingsInitializeResponse>;
