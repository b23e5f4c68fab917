import {
  USAGE_KEEP_DAYS,
  USAGE_PERMISSION,
  USAGE_TREND_DAYS,
  USAGE_WORKLOAD_LABELS,
  USAGE_WORKLOADS,
  type TenantUsageResponse,
  type UsageWorkload,
} from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import type { TenantRow } from '../../db/schema/index.js';
import { NotFoundError } from '../../lib/errors.js';
import { FeedHttpError } from '../../sources/errors.js';
import { appUserCounts, USAGE_REPORTS, usageReadingsOf, type UsageReading, type UsageReportName } from '../../sources/usage-reports.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import { createUsageRepo, dayBefore, type UsageStatus } from './usage.repo.js';

/** Read once a day (a little less, so a tenant's hourly job does not drift a day late); a failed read after an hour. */
const READ_EVERY_MS = 20 * 3_600_000;
const RETRY_FAILED_AFTER_MS = 3_600_000;
/** A usage report of counts is a few kilobytes; anything near this is not one. */
const MAX_REPORT_BYTES = 5 * 1024 * 1024;
/**
 * The apps' user detail is a row per user (about 250 bytes: 100,000 users are some 25 MB), counted as it arrives and
 * never held; past this it is not that report. Its download gets minutes, not a feed request's seconds.
 */
const MAX_USER_DETAIL_BYTES = 1024 * 1024 * 1024;
const USER_DETAIL_TIMEOUT_MS = 10 * 60_000;
/** Every report needs the same permission, so the first refusal says it for all. */
const ORDER: UsageReportName[] = ['services', 'apps', 'appUsers', 'copilot'];

export const USAGE_PERMISSION_ERROR = `Usage not readable: grant the app ${USAGE_PERMISSION} (application permission, with admin consent). Only relevance needs it; everything else works without.`;

/** Whether a tenant's usage is to be read now: never tried, read more than a day ago, or failed more than an hour ago. */
export function usageDue(status: UsageStatus, now: Date): boolean {
  if (!status.usageTriedAt) return true;
  const since = now.getTime() - status.usageTriedAt.getTime();
  return since >= (status.usageError ? RETRY_FAILED_AFTER_MS : READ_EVERY_MS);
}

export interface UsageReadOutcome {
  /** Counts were read and kept (all reports, or some when others failed). */
  read: boolean;
  stored: number;
  error: string | null;
  permissionMissing: boolean;
}

/** Each tenant's usage: read from Graph's usage reports with the tenant's own app and kept per day (docs/product/tenants.md, "Usage"). */
export function createUsageService(ctx: Pick<AppContext, 'db' | 'clock' | 'log' | 'config'> & { services: Pick<AppContext['services'], 'tenantClients'> }) {
  const repo = createUsageRepo(ctx.db);
  const tenantsRepo = createTenantsRepo(ctx.db);

  async function existing(id: number): Promise<TenantRow> {
    const row = await tenantsRepo.get(id);
    if (!row) throw new NotFoundError(`There is no tenant with id ${id}`);
    return row;
  }

  /** The reports through the tenant's client: their counts, what failed, and whether Graph refused for want of the permission. */
  async function fetchReadings(tenant: TenantRow, signal?: AbortSignal) {
    const client = ctx.services.tenantClients.clientOf(tenant);
    const readings: UsageReading[] = [];
    const failures: string[] = [];
    for (const report of ORDER) {
      const { path, label } = USAGE_REPORTS[report];
      try {
        if (report === 'appUsers') {
          const limits = { maxBytes: MAX_USER_DETAIL_BYTES, timeoutMs: Math.max(USER_DETAIL_TIMEOUT_MS, ctx.config.FEED_TIMEOUT_MS) };
          readings.push(...(await client.streamReport(path, limits, appUserCounts, { signal })));
        } else {
          const answer = await client.downloadReport(path, MAX_REPORT_BYTES, { signal });
          readings.push(...usageReadingsOf(report, answer.text, answer.contentType));
        }
      } catch (err) {
        if (signal?.aborted) throw err;
        const refused = err instanceof FeedHttpError && err.status === 403;
        if (refused && report === ORDER[0]) return { readings, failures, permissionMissing: true };
        failures.push(`${label}: ${(err as Error).message}`);
      }
    }
    return { readings, failures, permissionMissing: false };
  }

  async function read(tenantId: number, opts: { signal?: AbortSignal } = {}): Promise<UsageReadOutcome> {
    const tenant = await existing(tenantId);
    const log = ctx.log.child({ tenant: tenant.name });
    let fetched: Awaited<ReturnType<typeof fetchReadings>>;
    try {
      fetched = await fetchReadings(tenant, opts.signal);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      // No client (an unreadable secret), or a failure before any report: nothing read, said on the tenant.
      fetched = { readings: [], failures: [(err as Error).message], permissionMissing: false };
    }
    const { readings, failures, permissionMissing } = fetched;
    const read = !permissionMissing && (readings.length > 0 || failures.length === 0);
    const error = permissionMissing ? USAGE_PERMISSION_ERROR : failures.length ? `Usage not read: ${failures.join('; ')}` : null;
    const now = ctx.clock.now();
    const stored = await ctx.db.transaction(async (tx) => {
      const txRepo = createUsageRepo(tx);
      const written = read ? await txRepo.store(tenant.id, readings, now, dayBefore(now, USAGE_KEEP_DAYS)) : 0;
      await txRepo.setStatus(tenant.id, { at: now, read, error, permissionMissing });
      return written;
    });
    if (error) log.warn({ err: error }, permissionMissing ? 'usage not read: the app lacks Reports.Read.All' : 'usage reports not (all) read');
    else log.info({ counts: stored }, 'usage read');
    return { read, stored, error, permissionMissing };
  }

  return {
    read,

    /** The tenant job's step: reads the usage when it is due (usageDue), else leaves it; null when not due. */
    async readIfDue(tenantId: number, opts: { signal?: AbortSignal } = {}): Promise<UsageReadOutcome | null> {
      const status = await repo.status(tenantId);
      if (!status || !usageDue(status, ctx.clock.now())) return null;
      return read(tenantId, opts);
    },

    /** GET /api/admin/tenants/{id}/usage: the newest count of each workload, the trend, and whether the last read worked. */
    async tenantUsage(tenantId: number): Promise<TenantUsageResponse> {
      const tenant = await existing(tenantId);
      const known = (w: string): w is UsageWorkload => (USAGE_WORKLOADS as readonly string[]).includes(w);
      const [latest, trend] = await Promise.all([repo.latest(tenant.id), repo.trend(tenant.id, dayBefore(ctx.clock.now(), USAGE_TREND_DAYS))]);
      const order = (w: string) => USAGE_WORKLOADS.indexOf(w as UsageWorkload);
      return {
        readAt: tenant.usageAt?.toISOString() ?? null,
        error: tenant.usageError,
        permissionMissing: tenant.usagePermissionMissing,
        workloads: latest
          .filter((r) => known(r.workload))
          .sort((a, b) => order(a.workload) - order(b.workload))
          .map((r) => ({
            workload: r.workload as UsageWorkload,
            label: USAGE_WORKLOAD_LABELS[r.workload as UsageWorkload],
            reportDate: r.reportDate,
            periodDays: r.periodDays,
            activeUsers: r.activeUsers,
            licensedUsers: r.licensedUsers,
            share: r.licensedUsers ? r.activeUsers / r.licensedUsers : null,
          })),
        trend: trend.filter((r) => known(r.workload)).map((r) => ({ date: r.reportDate, workload: r.workload as UsageWorkload, activeUsers: r.activeUsers })),
      };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
