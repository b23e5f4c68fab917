// The score's bands, note and cost lines are the same on every screen (contracts change-health.ts).
export { CHANGE_HEALTH_NOTE, changeHealthBandOf, changeHealthCostLine as costLine, type ChangeHealthBand } from '@radar/contracts';
import type { TriageAnalyticsResponse } from '@radar/contracts';

type Day = Pick<TriageAnalyticsResponse['days'][number], 'date' | 'score'>;

/**
 * The accessible name of the score chart: its scored days (those counted before the score existed are gaps), the
 * last day's score; null when no day has a score yet.
 */
export function scoreChartLabel(days: readonly Day[]): string | null {
  const scored = days.filter((d): d is Day & { score: number } => typeof d.score === 'number');
  const first = scored[0];
  const last = scored[scored.length - 1];
  if (!first || !last) return null;
  const gap = first.date !== days[0]?.date ? ` (no score before ${first.date})` : '';
  return `Line chart of the change-health score per day from ${first.date} to ${last.date}${gap}; on ${last.date}: ${last.score}/100`;
}
