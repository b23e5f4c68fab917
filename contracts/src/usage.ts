import { isoDate } from './common.js';
import { USAGE_WORKLOADS } from './usage-workloads.js';
import { z } from './zod.js';

/**
 * A tenant's usage as Microsoft Graph's usage reports count it, read once a day and kept with its history
 * (docs/product/tenants.md, "Usage"): how many people are active on each workload (the keys of usage-workloads.ts),
 * and of how many licensed, where the report says.
 */

/** The application permission every usage report needs; optional for a tenant (only relevance needs it). */
export const USAGE_PERMISSION = 'Reports.Read.All';

/** How long a tenant's daily counts are kept: 13 months, so a month can be compared with the same month a year before. */
export const USAGE_KEEP_DAYS = 396;

/** The days of history GET …/usage gives as its trend. */
export const USAGE_TREND_DAYS = 90;

const usageWorkload = z.enum(USAGE_WORKLOADS);

/** One workload's newest count. */
export const tenantUsageWorkload = z.object({
  workload: usageWorkload,
  /** How the product names the workload ("Viva Engage" for `yammer`). */
  label: z.string(),
  /** The day the count is of (the report's date, UTC; Graph's reports lag two or three days behind). */
  reportDate: z.iso.date(),
  /**
   * What "active" means: 30 (active at least once in the 30 days up to reportDate: the services, Copilot, and the
   * Microsoft 365 apps from their user detail); 1 (active that day) only for an app whose 30-day count was not read.
   */
  periodDays: z.number().int().positive(),
  activeUsers: z.number().int().nonnegative(),
  /** Licensed for the workload (active and inactive; Copilot: enabled); null where the report does not say. */
  licensedUsers: z.number().int().nonnegative().nullable(),
  /** activeUsers / licensedUsers, 0 to 1; null without a licensed count (or none licensed). */
  share: z.number().nonnegative().nullable(),
});
export type TenantUsageWorkload = z.infer<typeof tenantUsageWorkload>;

/** GET /api/admin/tenants/{id}/usage. */
export const tenantUsageResponse = z.object({
  /** When the usage reports were last read (null: never). */
  readAt: isoDate.nullable(),
  /** Why the last read failed, kept until one succeeds. */
  error: z.string().nullable(),
  /** The app lacks Reports.Read.All: the tenant's usage is not read (relevance says Unknown), nothing else is affected. */
  permissionMissing: z.boolean(),
  /** Each workload's newest count, in USAGE_WORKLOADS order. */
  workloads: z.array(tenantUsageWorkload),
  /**
   * Active users per day and workload over the last USAGE_TREND_DAYS days, oldest first: the apps' daily counts (people
   * active that day), the other workloads' 30-day counts.
   */
  trend: z.array(z.object({ date: z.iso.date(), workload: usageWorkload, activeUsers: z.number().int().nonnegative() })),
});
export type TenantUsageResponse = z.infer<typeof tenantUsageResponse>;
