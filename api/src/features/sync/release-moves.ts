import { releaseDateMove, timingMove } from '@radar/contracts';
import type { ItemRow, NewItemRow } from '../../db/schema/index.js';
import type { FieldDiff } from './fields.js';

type Counters = Pick<ItemRow, 'gaMoves' | 'gaShiftMonths' | 'previewMoves' | 'previewShiftMonths'>;

/**
 * The date-slip counters after one recorded roadmap change: a GA (`releaseDate`) or preview date move adds one move
 * and its shift in months to the item's counters and stamps `releaseMovedAt`. What a move is lives in
 * @radar/contracts (release-dates.ts), shared with the dashboard's dated list; migration 0003 backfilled the
 * counters of history recorded before with the same rule. No move: nothing to write.
 */
export function releaseMoveColumns(diff: FieldDiff, previous: Counters, now: Date): Partial<NewItemRow> {
  const moved = (field: 'releaseDate' | 'previewDate') =>
    diff.changedFields.includes(field) ? releaseDateMove(diff.previousValues[field], diff.newValues[field]) : null;
  const ga = moved('releaseDate');
  const preview = moved('previewDate');
  if (!ga && !preview) return {};
  return {
    ...(ga ? { gaMoves: previous.gaMoves + 1, gaShiftMonths: previous.gaShiftMonths + (ga.shiftMonths ?? 0) } : {}),
    ...(preview ? { previewMoves: previous.previewMoves + 1, previewShiftMonths: previous.previewShiftMonths + (preview.shiftMonths ?? 0) } : {}),
    releaseMovedAt: now,
  };
}

/**
 * The same counters for a Message Center post: a move of its rollout timing (its earliest start or latest end,
 * contracts message-center.ts) counts as a GA move of the post, with the months its start moved, and stamps
 * `releaseMovedAt`; so the "release date moved" filter and the most-slipped sort cover posts too.
 */
export function timingMoveColumns(diff: FieldDiff, previous: Counters, now: Date): Partial<NewItemRow> {
  const move = diff.changedFields.includes('timing') ? timingMove(diff.previousValues.timing, diff.newValues.timing) : null;
  if (!move) return {};
  return { gaMoves: previous.gaMoves + 1, gaShiftMonths: previous.gaShiftMonths + move.shiftMonths, releaseMovedAt: now };
}
