import { type ChangeHistoryEntry, formatCount, formatMonthShift, releaseDateMove, type ReleaseMoveStats } from '@radar/contracts';

export interface DatedMove {
  historyId: number;
  changeDate: string;
  label: 'GA date' | 'Preview date';
  from: string;
  to: string;
  shiftMonths: number | null;
}

/** "GA date moved 3 times, +5 months since first seen" (the counters the server keeps); null when it never moved. */
export function moveSummary(label: 'GA date' | 'Preview date', moves: number, shiftMonths: number): string | null {
  if (moves === 0) return null;
  return `${label} moved ${formatCount(moves, 'time')}, ${formatMonthShift(shiftMonths)} since first seen`;
}

export function moveSummaries(stats: ReleaseMoveStats | null | undefined): string[] {
  if (!stats) return [];
  return [moveSummary('GA date', stats.gaMoves, stats.gaShiftMonths), moveSummary('Preview date', stats.previewMoves, stats.previewShiftMonths)].filter(
    (s): s is string => s !== null,
  );
}

/**
 * The dated list of GA and preview date moves from an item's change history (newest first, as the api sends it),
 * with the same rule the server counts by (@radar/contracts releaseDateMove).
 */
export function datedMoves(entries: ChangeHistoryEntry[] | undefined): DatedMove[] {
  const out: DatedMove[] = [];
  for (const entry of entries ?? []) {
    if (entry.changeType !== 'changed') continue;
    for (const [field, label] of [
      ['releaseDate', 'GA date'],
      ['previewDate', 'Preview date'],
    ] as const) {
      if (!entry.changedFields.includes(field)) continue;
      const move = releaseDateMove(entry.previousValues[field], entry.newValues[field]);
      if (move) out.push({ historyId: entry.id, changeDate: entry.changeDate, label, ...move });
    }
  }
  return out;
}

export const shiftText = (months: number | null) => (months === null ? '' : ` (${formatMonthShift(months)})`);
