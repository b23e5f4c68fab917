// The change-health score, shared by the api (which computes it) and the screens (which explain it).
import { formatCount } from './plural.js';

/**
 * Change health (docs/product/change-health.md): a 0–100 score of a team's open triage. Each open record weighs by its
 * priority; the score loses, of its 100 points, each cost's maximum times the weighted share of open records it
 * counts. Overdue: the due date passed while open. Unowned: nobody owns it. Imminent: due within
 * CHANGE_HEALTH_IMMINENT_DAYS days and still New. Untriaged: still New a week after it opened.
 */
export const CHANGE_HEALTH_COSTS = ['overdue', 'unowned', 'imminent', 'untriaged'] as const;
export type ChangeHealthCostKind = (typeof CHANGE_HEALTH_COSTS)[number];
export const CHANGE_HEALTH_MAX_POINTS: Record<ChangeHealthCostKind, number> = { overdue: 50, unowned: 20, imminent: 15, untriaged: 15 };
export const CHANGE_HEALTH_COST_LABELS: Record<ChangeHealthCostKind, string> = {
  overdue: 'Overdue',
  unowned: 'Nobody owns them',
  imminent: 'Due within 14 days, still New',
  untriaged: 'Still New after a week',
};
export const CHANGE_HEALTH_PRIORITY_WEIGHTS = { high: 3, medium: 2, low: 1 } as const;
export const CHANGE_HEALTH_IMMINENT_DAYS = 14;
export const CHANGE_HEALTH_UNTRIAGED_DAYS = 7;

/** The change-health score of weighted sums: 100 minus, per cost, its maximum times its weighted share of the open records (rounded). */
export function changeHealthScore(sums: { weight: number } & Record<ChangeHealthCostKind, number>): {
  score: number;
  points: Record<ChangeHealthCostKind, number>;
} {
  const points = Object.fromEntries(
    CHANGE_HEALTH_COSTS.map((k) => [k, sums.weight > 0 ? Math.round((CHANGE_HEALTH_MAX_POINTS[k] * sums[k]) / sums.weight) : 0]),
  ) as Record<ChangeHealthCostKind, number>;
  // The points listed add up to what the score lost.
  return { score: Math.max(0, 100 - CHANGE_HEALTH_COSTS.reduce((n, k) => n + points[k], 0)), points };
}

/** The palette colour of a change-health score on the screens: 80 and up success, 50 and up warning, else error. */
export type ChangeHealthBand = 'success' | 'warning' | 'error';
export const changeHealthBandOf = (score: number): ChangeHealthBand => (score >= 80 ? 'success' : score >= 50 ? 'warning' : 'error');

/** How the score is made, in one line (docs/product/change-health.md). */
export const CHANGE_HEALTH_NOTE =
  '100 minus points for open items that are overdue, unowned, due soon but still New, or New after a week, weighted by priority.';

/** "Overdue · 12 items · −25 points": one cost of the score, as the screens list it. */
export const changeHealthCostLine = (cost: { label: string; records: number; points: number }) =>
  `${cost.label} · ${formatCount(cost.records, 'item')} · −${formatCount(cost.points, 'point')}`;

/**
 * The score of weighted sums and what costs its points, largest first (costs that take none left out), with how many
 * open records each counts: what the api answers and the reports and digest print.
 */
export function changeHealthSummary(
  sums: { weight: number } & Record<ChangeHealthCostKind, number>,
  records: Record<ChangeHealthCostKind, number>,
): { score: number; costs: { kind: ChangeHealthCostKind; label: string; records: number; points: number }[] } {
  const { score, points } = changeHealthScore(sums);
  const costs = CHANGE_HEALTH_COSTS.filter((kind) => points[kind] > 0)
    .map((kind) => ({ kind, label: CHANGE_HEALTH_COST_LABELS[kind], records: records[kind], points: points[kind] }))
    .sort((a, b) => b.points - a.points);
  return { score, costs };
}
