/** Summaries of a bench's measurements, one definition for every bench. */

/**
 * The p-th percentile (0–100) by nearest rank: the smallest value with at least p % of the values at or below it
 * (p = 0 is the smallest, p = 100 the largest). `values` need not be sorted; none gives NaN.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The middle value; for an even count, the mean of the two middle ones. None gives NaN. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
