/**
 * Delivery order. A sign-in code must never wait behind bulk mail: 5,000 queued digests take minutes to hand to an
 * SMTP server, a code is useless after 10. Mail of priority INTERACTIVE is sent at once by the process that queued
 * it, on its own lane (mail.service.ts), and every delivery run claims by priority first.
 */
export const MAIL_PRIORITY = {
  /** Someone is waiting for it right now (a sign-in code) or it needs a decision (a held sync). */
  interactive: 0,
  /** About one change to one person (item notifications). */
  normal: 5,
  /** The weekly digest to every subscriber. */
  bulk: 9,
} as const;

const BY_KIND: Record<string, number> = {
  'sign-in-code': MAIL_PRIORITY.interactive,
  'sign-in-no-account': MAIL_PRIORITY.interactive,
  // A visitor waits for the weekly digest's confirmation link (double opt-in) right after signing up.
  'digest-confirm': MAIL_PRIORITY.interactive,
  'test-notification': MAIL_PRIORITY.interactive,
  'sync-held': MAIL_PRIORITY.interactive,
  // A paused alert channel needs its owner to act; a saved search's "Send test" e-mail is queued interactive itself.
  'alert-channel-paused': MAIL_PRIORITY.interactive,
  // Word that a token was created must arrive while it matters (someone else may have made it).
  'api-token-created': MAIL_PRIORITY.interactive,
  'api-token-expiring': MAIL_PRIORITY.normal,
  'item-change': MAIL_PRIORITY.normal,
  'saved-search-alert': MAIL_PRIORITY.normal,
  // An item given to someone, a mention, a due date: one person's work, as an item notification.
  triage: MAIL_PRIORITY.normal,
  'change-health': MAIL_PRIORITY.bulk,
  'weekly-digest': MAIL_PRIORITY.bulk,
};

export function priorityOf(kind: string): number {
  return BY_KIND[kind] ?? MAIL_PRIORITY.normal;
}
