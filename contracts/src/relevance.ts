/**
 * How relevant an item (a Message Center post or a roadmap item) is to one tenant, read from the tenant's real usage:
 * the usage reports' active users over the last 30 days per workload, their share of the licensed users, and the
 * tenant's licences. Microsoft shows such a relevance in the Message Center but Graph does not expose it, so the
 * product computes its own (docs/product/relevance.md). Pure: the caller reads the reports and licences.
 */
import { licenceStatusOf } from './licences.js';
import { formatCount } from './plural.js';
// A type only: the computation carries no zod.
import type { RelevanceThresholds } from './relevance-thresholds.js';
import { USAGE_WORKLOAD_LABELS, USAGE_WORKLOADS, usageMappingOf, type UsageWorkload } from './usage-workloads.js';

/** Most relevant first: the order of "Relevant to us first". */
export const RELEVANCE_LEVELS = ['high', 'medium', 'low', 'unknown'] as const;
export type RelevanceLevel = (typeof RELEVANCE_LEVELS)[number];

/**
 * Half the licensed users active means the workload is part of how the organisation works; 500 people is a change
 * the helpdesk will hear about whatever the share (5 % of a 10,000-seat tenant is still 500 calls waiting to happen).
 * A tenth of the licensed users, or 50 people, is a real group (a department, a pilot) worth telling; below both, few
 * people notice. The counts keep large tenants from reading Low on a small share, the shares keep small tenants (20
 * seats, 12 active) from never reaching High.
 */
export const DEFAULT_RELEVANCE_THRESHOLDS: Readonly<RelevanceThresholds> = { highShare: 0.5, highUsers: 500, mediumShare: 0.1, mediumUsers: 50 };

/** One workload's line of a usage report; `activeUsers` null (or the workload absent) = not read. */
export interface WorkloadUsage {
  workload: UsageWorkload;
  activeUsers: number | null;
  /** Users licensed for the workload; null when not read (then no share is given). */
  licensedUsers: number | null;
  /** The days "active" covers for this line (the apps report counts a day: 1), when not the input's `periodDays`. */
  periodDays?: number;
}

export interface RelevanceInput {
  /** The item's Message Center services or roadmap products, as the feeds name them. */
  names: readonly string[];
  /** Whether the tenant's usage reports were read at all. */
  usageRead: boolean;
  usage: readonly WorkloadUsage[];
  /** The products the tenant licenses (`licensedProductsOf`); null when its licences were not read. */
  licensedProducts: readonly string[] | null;
  thresholds?: Readonly<RelevanceThresholds>;
  /** The reports' window, in days (30 unless said; a line's own `periodDays` wins). */
  periodDays?: number;
}

export interface Relevance {
  level: RelevanceLevel;
  /** The workload the level was read from (the highest when the item depends on several). */
  workload?: UsageWorkload;
  activeUsers?: number;
  /** `activeUsers` / licensed users (0…1, above 1 when more people used it than are licensed); absent when unknown. */
  share?: number;
  /** The level in words, for the item and its tooltip. */
  reason: string;
}

const list = new Intl.ListFormat('en-US', { type: 'disjunction' });
const number = (n: number) => n.toLocaleString('en-US');

/** The rank of a level: 0 for High … 3 for Unknown. */
export const relevanceRank = (level: RelevanceLevel) => RELEVANCE_LEVELS.indexOf(level);

/** Sorts most relevant first (High, Medium, Low, Unknown). */
export const compareRelevance = (a: RelevanceLevel, b: RelevanceLevel) => relevanceRank(a) - relevanceRank(b);

/** Several tenants: the highest level in the list (Unknown when the list is empty or says nothing else). */
export function highestRelevance(levels: readonly RelevanceLevel[]): RelevanceLevel {
  return levels.reduce<RelevanceLevel>((best, level) => (relevanceRank(level) < relevanceRank(best) ? level : best), 'unknown');
}

/**
 * The step relevance moves triage's default priority by: High raises it one step (low → medium, medium → high), Low
 * lowers it one step (high → medium, medium → low), Medium and Unknown leave it. The caller keeps the result within
 * high…low, and a priority a person or a rule set is never moved.
 */
export function relevancePriority(level: RelevanceLevel): -1 | 0 | 1 {
  return level === 'high' ? 1 : level === 'low' ? -1 : 0;
}

function levelOf(active: number, share: number | null, t: Readonly<RelevanceThresholds>): Exclude<RelevanceLevel, 'unknown'> {
  if ((share !== null && share >= t.highShare) || active >= t.highUsers) return 'high';
  if ((share !== null && share >= t.mediumShare) || active >= t.mediumUsers) return 'medium';
  return 'low';
}

/** "1,240 people used Teams in the last 30 days, 82 % of licensed users" and its variants. */
function usageReason(label: string, active: number, licensed: number | null, days: number): string {
  const window = days === 1 ? 'on the latest day reported' : `in the last ${formatCount(days, 'day')}`;
  const licensedUsers = licensed ? formatCount(licensed, 'licensed user') : null;
  if (active === 0) return `Nobody used ${label} ${window}` + (licensedUsers ? ` (0 of ${licensedUsers})` : '');
  const head = `${formatCount(active, 'person', 'people')} used ${label} ${window}`;
  if (!licensed) return head;
  if (active > licensed) return `${head}, more than its ${licensedUsers}`;
  // Rounded down, so a share just under a threshold never reads as the threshold itself.
  const percent = Math.floor((active / licensed) * 100);
  return `${head}, ${percent === 0 ? 'under 1' : number(percent)} % of licensed users`;
}

/** One tenant's relevance of one item. */
export function relevanceOf(input: RelevanceInput): Relevance {
  const thresholds = input.thresholds ?? DEFAULT_RELEVANCE_THRESHOLDS;
  const days = input.periodDays ?? 30;
  const names = [...new Set(input.names.map((n) => n.replace(/\s+/g, ' ').trim()).filter(Boolean))];
  if (names.length === 0) return { level: 'unknown', reason: 'The item names no service or product' };

  // Licences first: an item the tenant cannot use is Low, whatever the usage says or whether it was read.
  if (input.licensedProducts !== null) {
    const { status } = licenceStatusOf(names, [{ name: 'tenant', products: input.licensedProducts }]);
    if (status === 'not_licensed') return { level: 'low', reason: `Not licensed: the tenant has no plan that includes ${list.format(names)}` };
  }
  if (!input.usageRead) return { level: 'unknown', reason: 'Usage not read yet' };

  const workloads = new Set<UsageWorkload>();
  const unmapped: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const mapping = usageMappingOf(name);
    if (mapping.kind === 'mapped') for (const w of mapping.workloads) workloads.add(w);
    else (mapping.kind === 'unmapped' ? unmapped : unknown).push(name);
  }
  if (workloads.size === 0) {
    return unmapped.length
      ? { level: 'unknown', reason: `No usage report covers ${list.format(unmapped)}` }
      : { level: 'unknown', reason: `Not in the usage mapping yet: ${list.format(unknown)}` };
  }

  const ordered = USAGE_WORKLOADS.filter((w) => workloads.has(w));
  const read = ordered.flatMap((workload) => {
    const row = input.usage.find((u) => u.workload === workload && u.activeUsers !== null);
    if (!row || row.activeUsers === null) return [];
    const active = row.activeUsers;
    const share = row.licensedUsers ? active / row.licensedUsers : null;
    return [{ workload, active, licensed: row.licensedUsers, share, days: row.periodDays ?? days, level: levelOf(active, share, thresholds) }];
  });
  if (read.length === 0) return { level: 'unknown', reason: `${list.format(ordered.map((w) => USAGE_WORKLOAD_LABELS[w]))} usage not read yet` };

  // The highest level wins; among equals the workload more people used, then the larger share.
  const best = read.reduce((a, b) => {
    const byLevel = compareRelevance(a.level, b.level) || b.active - a.active || (b.share ?? -1) - (a.share ?? -1);
    return byLevel > 0 ? b : a;
  });
  return {
    level: best.level,
    workload: best.workload,
    activeUsers: best.active,
    ...(best.share !== null ? { share: best.share } : {}),
    reason: usageReason(USAGE_WORKLOAD_LABELS[best.workload], best.active, best.licensed, best.days),
  };
}
