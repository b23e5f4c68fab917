import crypto from 'node:crypto';
import { createElement } from 'react';
import type { BaseDeps } from '../../deps.js';
import type { MailService } from '../../mail/mail.service.js';
import { renderMail } from '../../mail/render.js';
import { DIGEST_CONFIRM_SUBJECT, DigestConfirmMail, digestConfirmText } from '../../mail/templates/DigestConfirmMail.js';
import { createSignedToken, readSignedToken } from '../../lib/signed-token.js';
import { createDigestRepo } from './digest.repo.js';

export const SIGNUP_MESSAGE = 'Almost done! Check your inbox and confirm your address with the link we sent you to receive the M365 Radar digest every Sunday.';
/** One confirmation mail per address per this interval; a signup in between answers the same and sends nothing. */
export const CONFIRM_RESEND_MS = 5 * 60 * 1000;

const CONTEXT = 'radar-digest-confirm-v1:';
const HOUR = 60 * 60 * 1000;
const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** What a confirmation link leads to. */
export type ConfirmOutcome = { kind: 'confirmable' | 'confirmed' | 'already'; email: string } | { kind: 'expired' | 'invalid' };

type Deps = Pick<BaseDeps, 'db' | 'clock' | 'log' | 'config' | 'secret' | 'publicUrl'> & { mail?: Pick<MailService, 'enqueue' | 'kick'> };

/** `GET/POST /api/weekly-digest/confirm?token=`: the link of the confirmation mail. */
export function confirmUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/api/weekly-digest/confirm?token=${encodeURIComponent(token)}`;
}

/**
 * The visitor digest signup with double opt-in. A signup writes (or refreshes) the address's row with the hash of a
 * fresh nonce and mails a signed link carrying it; nothing is sent to the address until that link is used. The link
 * is single-use, replaced by a newer signup, and expires after DIGEST_CONFIRM_HOURS, when a never-confirmed row is
 * deleted. An unsubscribed address that signs up again needs a new confirmation. The answer is the same in every case
 * (no address enumeration), and the mail names nobody (the typed name is not confirmed).
 */
export function createDigestSignup(deps: Deps) {
  const repo = createDigestRepo(deps.db);
  const validHours = deps.config.DIGEST_CONFIRM_HOURS;

  function readToken(token: unknown): { subscriberId: number; nonce: string } | null {
    const body = readSignedToken(deps.secret, CONTEXT, token);
    const match = body ? /^c:(\d{1,10}):([A-Za-z0-9_-]{20,100})$/.exec(body) : null;
    return match ? { subscriberId: Number(match[1]), nonce: match[2] ?? '' } : null;
  }

  /** Checks a link without using it (the GET page) or uses it (the POST). */
  async function resolve(token: unknown, use: boolean): Promise<ConfirmOutcome> {
    const parsed = readToken(token);
    const row = parsed && (await repo.subscriberById(parsed.subscriberId));
    if (!parsed || !row) return { kind: 'invalid' };
    const now = deps.clock.now();
    if (row.confirmTokenHash !== sha256(parsed.nonce)) {
      // A spent link of an address that is subscribed now: say so rather than "invalid".
      return row.isActive && row.confirmedAt ? { kind: 'already', email: row.email } : { kind: 'invalid' };
    }
    if (!row.confirmExpiresAt || row.confirmExpiresAt.getTime() <= now.getTime()) return { kind: 'expired' };
    if (!use) return { kind: 'confirmable', email: row.email };
    await repo.confirm(row.id, now);
    deps.log.info({ subscriberId: row.id }, 'weekly digest subscription confirmed');
    return { kind: 'confirmed', email: row.email };
  }

  return {
    /**
     * The same work whatever the address's state (new, waiting, subscribed, asked a minute ago): the mail is rendered
     * and the row read in a transaction every time, and only whether the mail is queued differs, so the answer's
     * timing does not tell a subscribed address from another.
     */
    async signup(input: { email: string; firstName: string; lastName: string }): Promise<{ success: true; message: string }> {
      if (!deps.mail) throw new Error('the digest signup needs the mail service');
      const mail = deps.mail;
      const now = deps.clock.now();
      const nonce = crypto.randomBytes(24).toString('base64url');
      const expiresAt = new Date(now.getTime() + validHours * HOUR);
      const sent = await deps.db.transaction(async (tx) => {
        const txRepo = createDigestRepo(tx);
        const existing = await txRepo.subscriberByEmailForUpdate(input.email);
        const subscribed = existing?.isActive && existing.confirmedAt;
        const recentlySent = existing?.confirmSentAt && now.getTime() - existing.confirmSentAt.getTime() < CONFIRM_RESEND_MS;
        const send = !subscribed && !recentlySent;
        const id = send ? (await txRepo.requestConfirmation(input, { tokenHash: sha256(nonce), expiresAt, now })).id : (existing?.id ?? 0);
        const link = confirmUrl(deps.publicUrl, createSignedToken(deps.secret, CONTEXT, `c:${id}:${nonce}`));
        const props = { confirmUrl: link, validHours, publicUrl: deps.publicUrl };
        const rendered = await renderMail(createElement(DigestConfirmMail, props), digestConfirmText(props));
        if (send) await mail.enqueue(tx, { kind: 'digest-confirm', to: input.email, subject: DIGEST_CONFIRM_SUBJECT, ...rendered, sensitive: { expiresAt } });
        return send;
      });
      if (sent) mail.kick();
      return { success: true, message: SIGNUP_MESSAGE };
    },

    /** GET: what the link would do; changes nothing (mail scanners fetch links). */
    previewConfirmation: (token: unknown) => resolve(token, false),
    /** POST: confirms the subscription. */
    confirmSubscription: (token: unknown) => resolve(token, true),

    /** Deletes never-confirmed signups whose link expired (hourly job). */
    expireConfirmations: () => repo.expireConfirmations(deps.clock.now()),
  };
}
