import type { ModerationUpdate, ModeratorActionType, ThirdPartyLink } from '@radar/contracts';

export interface ModerationSnapshot {
  isFeatured: boolean;
  thirdPartyLinks: ThirdPartyLink[];
  moderatorNotes: string;
}

/** The one moderator-activity record a save posts. */
export interface ActivityRecord {
  actionType: ModeratorActionType;
  details: {
    /** Every action the save amounts to, in the order featured, links, note (a save may do several at once). */
    changes: ModeratorActionType[];
    isFeatured: boolean;
    linksAdded: Pick<ThirdPartyLink, 'title' | 'url' | 'type'>[];
    linksRemoved: Pick<ThirdPartyLink, 'title' | 'url' | 'type'>[];
    previousNote: string;
    newNote: string;
  };
}

type NoteAction = Extract<ModeratorActionType, 'note_added' | 'note_updated' | 'note_removed'>;

const isEmpty = (note: string) => note.trim() === '';
const linkKey = (link: ThirdPartyLink) => `${link.url.trim()}\u0000${link.title.trim()}`;
const linkDetails = ({ title, url, type }: ThirdPartyLink) => ({ title, url, type });

/**
 * The note action, exactly as spec 01 §4 writes it: added if the previous note was empty and the new one is not;
 * removed if the new one is empty; otherwise updated. A note of only white space counts as empty.
 */
export function noteAction(previous: string, next: string): NoteAction {
  if (isEmpty(previous) && !isEmpty(next)) return 'note_added';
  if (isEmpty(next)) return 'note_removed';
  return 'note_updated';
}

/**
 * The single record posted after a successful save (spec 01 §4, §7). Its actionType names the save's main change:
 * the featured flag if it changed, else added links, else removed links, else the note action of the rule above.
 * `details` lists everything the save changed, so nothing is lost when a save does several things at once.
 */
export function moderatorActivityFor(before: ModerationSnapshot, after: ModerationUpdate): ActivityRecord {
  const afterNote = after.moderatorNotes ?? '';
  const beforeKeys = new Set(before.thirdPartyLinks.map(linkKey));
  const afterKeys = new Set(after.thirdPartyLinks.map(linkKey));
  const linksAdded = after.thirdPartyLinks.filter((link) => !beforeKeys.has(linkKey(link))).map(linkDetails);
  const linksRemoved = before.thirdPartyLinks.filter((link) => !afterKeys.has(linkKey(link))).map(linkDetails);
  const note = noteAction(before.moderatorNotes, afterNote);
  const noteChanged = before.moderatorNotes.trim() !== afterNote.trim();

  const changes: ModeratorActionType[] = [];
  if (before.isFeatured !== after.isFeatured) changes.push(after.isFeatured ? 'featured' : 'unfeatured');
  if (linksAdded.length) changes.push('link_added');
  if (linksRemoved.length) changes.push('link_removed');
  if (noteChanged) changes.push(note);

  return {
    actionType: changes[0] ?? note,
    details: { changes, isFeatured: after.isFeatured, linksAdded, linksRemoved, previousNote: before.moderatorNotes, newNote: afterNote },
  };
}
