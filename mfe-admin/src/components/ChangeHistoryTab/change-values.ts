import { IGNORED_HISTORY_FIELDS, type ChangeHistoryEntry } from '@radar/contracts';

export { formatChangeValue } from '@radar/shared-ui';

/** Fields worth showing: bookkeeping timestamps that change on every edit are left out. */
export function meaningfulFields(entry: Pick<ChangeHistoryEntry, 'changedFields'>): string[] {
  return entry.changedFields.filter((f) => !(IGNORED_HISTORY_FIELDS as readonly string[]).includes(f));
}

/** The item a record belongs to, with its dashboard deep link. */
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
