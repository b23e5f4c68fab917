import { ACTIVITY_DETAILS_MAX_CHARS, ACTIVITY_NOTE_CHARS, type ModerationUpdate, type ModeratorActionType, type ThirdPartyLink } from '@radar/contracts';

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
    linksAdded: LinkDetail[];
    linksRemoved: LinkDetail[];
    /** Links left out of the two lists above so the record stays within the server's size limit. */
    linksOmitted: number;
    /** The notes, clipped to ACTIVITY_NOTE_CHARS like the server's audit (the whole note stays on the item). */
    previousNote: string;
    newNote: string;
  };
}

type LinkDetail = Pick<ThirdPartyLink, 'title' | 'url' | 'type'>;

type NoteAction = Extract<ModeratorActionType, 'note_added' | 'note_updated' | 'note_removed'>;

const isEmpty = (note: string) => note.trim() === '';
const linkKey = (link: ThirdPartyLink) => `${link.url.trim()}\u0000${link.title.trim()}`;
const linkDetails = ({ title, url, type }: ThirdPartyLink): LinkDetail => ({ title, url, type });
const clip = (note: string) => (note.length > ACTIVITY_NOTE_CHARS ? `${note.slice(0, ACTIVITY_NOTE_CHARS - 1)}…` : note);
const fits = (details: ActivityRecord['details']) => JSON.stringify(details).length <= ACTIVITY_DETAILS_MAX_CHARS;

/**
 * The server refuses details over ACTIVITY_DETAILS_MAX_CHARS (a save may carry 50 links): the links are listed while
 * they fit, added ones first, and the rest counted in linksOmitted.
 */
function withinLimit(details: ActivityRecord['details']): ActivityRecord['details'] {
  if (fits(details)) return details;
  const fitted = {
    ...details,
    linksAdded: [] as LinkDetail[],
    linksRemoved: [] as LinkDetail[],
    linksOmitted: details.linksAdded.length + details.linksRemoved.length,
  };
  for (const list of ['linksAdded', 'linksRemoved'] as const) {
    for (const link of details[list]) {
      const next = { ...fitted, [list]: [...fitted[list], link], linksOmitted: fitted.linksOmitted - 1 };
      if (!fits(next)) return fitted;
      Object.assign(fitted, next);
    }
  }
  return fitted;
}

/**
 * The note action: added if the previous note was empty and the new one is not;
 * removed if the new one is empty; otherwise updated. A note of only white space counts as empty.
 */
export function noteAction(previous: string, next: string): NoteAction {
  if (isEmpty(previous) && !isEmpty(next)) return 'note_added';
  if (isEmpty(next)) return 'note_removed';
  return 'note_updated';
}

/**
 * The single record posted after a successful save. Its actionType names the save's main change:
 * the featured flag if it changed, else added links, else removed links, else the note action of the rule above.
 * `details` lists everything the save changed, so nothing is lost when a save does several things at once (within
 * the server's size limit: long notes clipped, links beyond the limit counted).
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
    details: withinLimit({
      changes,
      isFeatured: after.isFeatured,
      linksAdded,
      linksRemoved,
      linksOmitted: 0,
      previousNote: clip(before.moderatorNotes),
      newNote: clip(afterNote),
    }),
  };
}
