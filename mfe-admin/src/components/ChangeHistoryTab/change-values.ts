import { CHANGE_VALUE_PREVIEW_CHARS, IGNORED_HISTORY_FIELDS, type ChangeHistoryEntry } from '@radar/contracts';
import { truncate } from '@radar/shared-ui';

/** A history value as short text: lists joined, objects as JSON, empty as '(empty)'. */
export function formatChangeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (Array.isArray(value))
    return value.length ? truncate(value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', '), CHANGE_VALUE_PREVIEW_CHARS) : '(empty)';
  if (typeof value === 'object') return truncate(JSON.stringify(value), CHANGE_VALUE_PREVIEW_CHARS);
  return truncate(String(value), CHANGE_VALUE_PREVIEW_CHARS);
}

/** Fields worth showing: bookkeeping timestamps that change on every edit are left out. */
export function meaningfulFields(entry: Pick<ChangeHistoryEntry, 'changedFields'>): string[] {
  return entry.changedFields.filter((f) => !(IGNORED_HISTORY_FIELDS as readonly string[]).includes(f));
}

/** The item a record belongs to, with its dashboard deep link (spec 02 route table). */
export function changeItemLink(entry: ChangeHistoryEntry): { label: string; title: string; to: string } | null {
  if (entry.roadmapItem) {
    return { label: entry.roadmapItem.itemId, title: entry.roadmapItem.title, to: `/dashboard?roadmap=${encodeURIComponent(entry.roadmapItem.itemId)}` };
  }
  if (entry.messageCenterItem) {
    return {
      label: entry.messageCenterItem.messageId,
      title: entry.messageCenterItem.title,
      to: `/dashboard?message=${encodeURIComponent(entry.messageCenterItem.messageId)}`,
    };
  }
  return null;
}
