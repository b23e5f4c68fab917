import type { ModerationUpdate, ModeratorActionType, ThirdPartyLink } from '@radar/contracts';

export interface ModerationSnapshot {
  isFeatured: boolean;
  thirdPartyLinks: ThirdPartyLink[];
  moderatorNotes: string;
}

export interface DerivedAction {
  actionType: ModeratorActionType;
  details: Record<string, unknown>;
}

const linkKey = (link: ThirdPartyLink) => `${link.url.trim()}\u0000${link.title.trim()}`;
const linkDetails = (link: ThirdPartyLink) => ({ title: link.title, url: link.url, type: link.type });

/**
 * Note action (spec 01 §4): added if the previous note was empty and the new one is not; removed if the new one is
 * empty; otherwise updated. No action when the note did not change.
 */
export function noteAction(previous: string, next: string): ModeratorActionType | null {
  const before = previous.trim();
  const after = next.trim();
  if (before === after) return null;
  if (!before && after) return 'note_added';
  if (!after) return 'note_removed';
  return 'note_updated';
}

/** The activity records one save produces: featured/unfeatured, one per added/removed link, the note action. */
export function deriveModeratorActions(before: ModerationSnapshot, after: ModerationUpdate): DerivedAction[] {
  const actions: DerivedAction[] = [];
  if (before.isFeatured !== after.isFeatured) {
    actions.push({ actionType: after.isFeatured ? 'featured' : 'unfeatured', details: { isFeatured: after.isFeatured } });
  }
  const beforeKeys = new Set(before.thirdPartyLinks.map(linkKey));
  const afterKeys = new Set(after.thirdPartyLinks.map(linkKey));
  for (const link of after.thirdPartyLinks) {
    if (!beforeKeys.has(linkKey(link))) actions.push({ actionType: 'link_added', details: linkDetails(link) });
  }
  for (const link of before.thirdPartyLinks) {
    if (!afterKeys.has(linkKey(link))) actions.push({ actionType: 'link_removed', details: linkDetails(link) });
  }
  const note = noteAction(before.moderatorNotes, after.moderatorNotes ?? '');
  if (note) actions.push({ actionType: note, details: { previousNote: before.moderatorNotes, newNote: after.moderatorNotes } });
  return actions;
}
