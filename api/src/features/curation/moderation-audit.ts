import { ACTIVITY_NOTE_CHARS, type ModeratorActionType } from '@radar/contracts';
import type { ThirdPartyLinkRow } from '../../db/schema/index.js';

/** The curation fields one save changes, as stored before and after it. */
export interface CurationState {
  isFeatured: boolean;
  thirdPartyLinks: ThirdPartyLinkRow[];
  moderatorNotes: string | null;
}

export interface AuditAction {
  actionType: ModeratorActionType;
  details: Record<string, unknown>;
}

const clip = (text: string | null) => (text && text.length > ACTIVITY_NOTE_CHARS ? `${text.slice(0, ACTIVITY_NOTE_CHARS - 1)}…` : text);
const isEmpty = (note: string | null) => !note || note.trim() === '';
/** A link's identity: every field the moderator can edit, so an edited link reads as one removed and one added. */
const linkKey = (link: ThirdPartyLinkRow) => JSON.stringify([link.url, link.title, link.type, link.description ?? null, link.name ?? null]);

/** Links in `a` that are not in `b`, as a multiset (two equal links count twice). */
function linksMissingFrom(a: ThirdPartyLinkRow[], b: ThirdPartyLinkRow[]): ThirdPartyLinkRow[] {
  const remaining = new Map<string, number>();
  for (const link of b) remaining.set(linkKey(link), (remaining.get(linkKey(link)) ?? 0) + 1);
  return a.filter((link) => {
    const left = remaining.get(linkKey(link)) ?? 0;
    if (left > 0) remaining.set(linkKey(link), left - 1);
    return left === 0;
  });
}

/**
 * The activity records of one moderation save, derived from what was stored before and after it (the action types
 * of docs/product/item-dialogs.md). A field that did not change writes nothing. The note rule: added when the previous note was
 * empty and the new one is not, removed when the new one is empty, otherwise updated.
 */
export function moderationActions(before: CurationState, after: CurationState): AuditAction[] {
  const actions: AuditAction[] = [];
  if (before.isFeatured !== after.isFeatured) {
    actions.push({ actionType: after.isFeatured ? 'featured' : 'unfeatured', details: { isFeatured: after.isFeatured } });
  }
  for (const link of linksMissingFrom(after.thirdPartyLinks, before.thirdPartyLinks)) actions.push({ actionType: 'link_added', details: { link } });
  for (const link of linksMissingFrom(before.thirdPartyLinks, after.thirdPartyLinks)) actions.push({ actionType: 'link_removed', details: { link } });
  const previous = before.moderatorNotes;
  const next = after.moderatorNotes;
  const noteChanged = (previous ?? '') !== (next ?? '') && !(isEmpty(previous) && isEmpty(next));
  if (noteChanged) {
    const actionType: ModeratorActionType = isEmpty(previous) ? 'note_added' : isEmpty(next) ? 'note_removed' : 'note_updated';
    actions.push({ actionType, details: { previousNote: clip(previous), note: clip(next) } });
  }
  return actions;
}
