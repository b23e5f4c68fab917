import { USAGE_PERMISSION, type TenantUsageResponse, type TenantUsageWorkload, type UsageWorkload } from '@radar/contracts';

const number = (n: number) => n.toLocaleString('en-US');

/** "in the last 30 days", or for the apps' daily count "on the latest day reported" (as relevance's reasons say it). */
export function periodText(periodDays: number): string {
  return periodDays === 1 ? 'on the latest day reported' : `in the last ${number(periodDays)} days`;
}

/**
 * The share of licensed users active, rounded down as relevance rounds it (a share just under a threshold never reads
 * as the threshold): "82 %", "under 1 %", "more than licensed" above 100 %, "—" when the report gives no licensed count.
 */
export function shareText(workload: Pick<TenantUsageWorkload, 'share' | 'activeUsers'>): string {
  const { share, activeUsers } = workload;
  if (share === null) return '—';
  if (share > 1) return 'more than licensed';
  const percent = Math.floor(share * 100);
  return percent === 0 && activeUsers > 0 ? 'under 1 %' : `${percent} %`;
}

export const countText = (n: number | null) => (n === null ? '—' : number(n));

export type UsageState =
  { kind: 'permission'; text: string } | { kind: 'failed'; text: string } | { kind: 'never'; text: string } | { kind: 'read'; text: null };

/** Why the tenant's usage is not (or no longer) read, in one line; null text when the last read went well. */
export function usageState(usage: Pick<TenantUsageResponse, 'readAt' | 'error' | 'permissionMissing'>): UsageState {
  if (usage.permissionMissing) {
    return {
      kind: 'permission',
      text: `Usage is not read: grant ${USAGE_PERMISSION} to the tenant's app (an application permission, with admin consent). Only relevance needs it; everything else works without it.`,
    };
  }
  if (usage.error) return { kind: 'failed', text: `The last read of the usage reports failed: ${usage.error}` };
  if (!usage.readAt) return { kind: 'never', text: "Not read yet: the usage reports are read once a day with the tenant's sync." };
  return { kind: 'read', text: null };
}

/** The groups the trend chart shows one at a time: the counts of a 30-day window, and the apps' counts of one day. */
export const TREND_GROUPS = {
  services: {
    label: 'Services and Copilot (active in 30 days)',
    workloads: ['exchange', 'onedrive', 'sharepoint', 'teams', 'yammer', 'copilot'],
  },
  apps: {
    label: 'Microsoft 365 apps (active that day)',
    workloads: ['m365apps', 'word', 'excel', 'powerpoint', 'outlook', 'onenote'],
  },
} as const satisfies Record<string, { label: string; workloads: readonly UsageWorkload[] }>;
export type TrendGroup = keyof typeof TREND_GROUPS;

export type TrendRow = { date: string } & Partial<Record<UsageWorkload, number>>;

/** The trend as the chart reads it: one row per day (oldest first) with each workload's active users that day. */
export function trendRows(trend: TenantUsageResponse['trend'], workloads: readonly UsageWorkload[]): TrendRow[] {
  const rows = new Map<string, TrendRow>();
  for (const point of trend) {
    if (!workloads.includes(point.workload)) continue;
    const row = rows.get(point.date) ?? { date: point.date };
    row[point.workload] = point.activeUsers;
    rows.set(point.date, row);
  }
  return [...rows.values()].sort((a, b) => a.date.localeCompare(b.date));
}
