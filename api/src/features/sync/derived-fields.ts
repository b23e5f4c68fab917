import { roadmapDateRange, type TimingWindow } from '@radar/contracts';
import type { NewItemRow } from '../../db/schema/index.js';
import { timingSpan } from '../../sources/rollout-timing.js';

/**
 * Values derived from the feed text rather than read from a field (a post's rollout windows; when an item reaches
 * tenants; the families of its products). The sync writes them with every row it writes. When the way they are read
 * improves, DERIVED_VERSION goes up and the rows written before are derived again at start (rederiveItems) —
 * including removed and expired items no feed will send again — without writing history: the feed did not change,
 * our reading of it did. The reads and writes of the stored rows are in derived-fields.repo.ts.
 */
export const DERIVED_VERSION = 2;

type Derived = Pick<NewItemRow, 'timing' | 'timingStart' | 'timingEnd' | 'derivedVersion'>;

export function messageDerived(timing: TimingWindow[]): Derived {
  const span = timingSpan(timing);
  return { timing, timingStart: span?.start ?? null, timingEnd: span?.end ?? null, derivedVersion: DERIVED_VERSION };
}

/** Service Health issues have no rollout: they are never "rolling out" and sort last by timing. */
export function healthDerived(): Derived {
  return { timing: [], timingStart: null, timingEnd: null, derivedVersion: DERIVED_VERSION };
}

export function roadmapDerived(releaseDate: string | null): Derived {
  const span = roadmapDateRange(releaseDate);
  return { timing: [], timingStart: span?.start ?? null, timingEnd: span?.end ?? null, derivedVersion: DERIVED_VERSION };
}
