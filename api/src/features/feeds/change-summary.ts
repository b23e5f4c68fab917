import type { itemHistory } from '../../db/schema/index.js';
import { fieldLabel, formatValue, isShownField } from '../subscriptions/change-format.js';

/** The latest item_history row of an item, as the feeds read it. */
export type LatestChange = Pick<typeof itemHistory.$inferSelect, 'changeType' | 'changeDate' | 'changedFields' | 'previousValues' | 'newValues'>;

export interface ChangeSummary {
  /** One line for titles: "New", "Updated", "Removed", "Back in the feed". */
  kind: string;
  /** Each change as "Label: old → new" (or "Label: value" for a new item). */
  lines: string[];
}

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * What the latest version of an item changed, in words: the same field labels and value formatting as the
 * notification mails (notifications/change-format.ts), so a feed reader and an inbox tell a change alike.
 */
export function summarizeChange(change: LatestChange | null, sourceLabel: string): ChangeSummary {
  if (!change) return { kind: 'Listed', lines: [] };
  if (change.changeType === 'new') {
    const lines = Object.entries(change.newValues)
      .filter(([field, value]) => isShownField(field) && field !== 'title' && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0))
      .map(([field, value]) => `${fieldLabel(field)}: ${formatValue(value, field)}`);
    return { kind: 'New', lines: [`New ${sourceLabel}.`, ...lines] };
  }
  if (change.changeType === 'removed') {
    const reason = change.newValues.reason === 'expired' ? ' (expired)' : '';
    return { kind: 'Removed', lines: [`Removed from the feed${reason}.`] };
  }
  const restored = change.changedFields.includes('isRemoved') && change.newValues.isRemoved === false;
  const lines = change.changedFields
    .filter(isShownField)
    .map((field) => `${fieldLabel(field)}: ${formatValue(change.previousValues[field], field)} → ${formatValue(change.newValues[field], field)}`);
  return { kind: restored ? 'Back in the feed' : 'Updated', lines: restored ? ['Back in the feed after it had been removed.', ...lines] : lines };
}

/** The summary as the HTML content of a feed entry (every value escaped), with the date and a link to the item. */
export function changeSummaryHtml(summary: ChangeSummary, change: LatestChange | null, url: string): string {
  const when = change
    ? `<p>${escapeHtml(summary.kind)} on ${change.changeDate.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}</p>`
    : '';
  const list = summary.lines.length ? `<ul>${summary.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '';
  return `${when}${list}<p><a href="${escapeHtml(url)}">Open in M365 Radar</a></p>`;
}
