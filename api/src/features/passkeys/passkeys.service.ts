import crypto from 'node:crypto';
import { createElement } from 'react';
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server';
import type * as WebAuthn from '@simplewebauthn/server';
import { PASSKEYS_MAX, PRODUCT_NAME, type Passkey, type WebauthnCredential } from '@radar/contracts';
import type { BaseDeps } from '../../deps.js';
import type { RequestAuth } from '../../http/auth.js';
import type { FreshFactorGuard } from '../../http/fresh-factor.js';
import { AuthenticationError, ConflictError, InputError, NotFoundError } from '../../lib/errors.js';
import type { MailService } from '../../mail/mail.service.js';
import { enqueueMail } from '../../mail/outbox.repo.js';
import { renderMail } from '../../mail/render.js';
import { PasskeyMail, passkeySubject, passkeyText, type PasskeyMailProps } from '../../mail/templates/PasskeyMail.js';
import { authRepo } from '../auth/auth.repo.js';
import { createTokensRepo } from '../tokens/tokens.repo.js';
import type { ClientInfo, IssuedSession, SessionsService } from '../auth/sessions.service.js';
import { createPasskeysRepo, type PasskeyRow } from './passkeys.repo.js';

/**
 * @simplewebauthn/server (and its CBOR, ASN.1 and crypto dependencies) loads on the first passkey ceremony, not with
 * the services: most processes that load the services never hold one.
 */
let webauthn: Promise<typeof WebAuthn> | undefined;
const webauthnLibrary = () => (webauthn ??= import('@simplewebauthn/server'));
const generateRegistrationOptions: typeof WebAuthn.generateRegistrationOptions = async (options) =>
  (await webauthnLibrary()).generateRegistrationOptions(options);
const verifyRegistrationResponse: typeof WebAuthn.verifyRegistrationResponse = async (options) => (await webauthnLibrary()).verifyRegistrationResponse(options);
const generateAuthenticationOptions: typeof WebAuthn.generateAuthenticationOptions = async (options) =>
  (await webauthnLibrary()).generateAuthenticationOptions(options);
const verifyAuthenticationResponse: typeof WebAuthn.verifyAuthenticationResponse = async (options) =>
  (await webauthnLibrary()).verifyAuthenticationResponse(options);

/** How long the browser has to answer a ceremony's options. */
export const PASSKEY_CHALLENGE_MS = 5 * 60 * 1000;

export const PASSKEY_MESSAGES = {
  notVerified: 'This passkey could not be verified: try again, or sign in with a code',
  unknown: 'This passkey is not registered here: sign in with a code, then add it on your profile',
  expired: 'The passkey prompt expired: try again',
  signedIn: 'Signed in with your passkey',
  confirmed: 'Confirmed with your passkey',
  noPasskey: 'You have no passkey to confirm with: add one on your profile first',
  notYours: 'This passkey is not one of yours: choose a passkey of this account',
};

const onTime = (d: Date) =>
  `${d.toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' })} UTC`;

/** A 400 naming the credential, the shape of every refused ceremony answer of a signed-in user. */
const credentialError = (message: string) => new InputError(`credential: ${message}`, [{ path: 'credential', message }]);

/** A passkey as /profile lists it. */
export const passkeyAnswer = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  synced: row.deviceType === 'multiDevice',
});

/** The challenge a ceremony's answer carries (in its clientDataJSON), or null when it cannot be read. */
function challengeOf(credential: WebauthnCredential): string | null {
  const data = credential.response.clientDataJSON;
  if (typeof data !== 'string' || data.length > 4096) return null;
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Passkeys with @simplewebauthn/server. The relying party is PUBLIC_URL's host and the only accepted origin is
 * PUBLIC_URL's. Every ceremony's challenge is made here, kept for five minutes and used once (taken before the answer
 * is verified, so a replayed answer finds none). Passkeys are discoverable (the user picks one; no e-mail is typed);
 * attestation is not asked for (no device data is collected). User verification (a PIN or biometric) is required to
 * add a passkey and to confirm it is the user (step-up); a sign-in without it is accepted as a sign-in but does not
 * prove the admin second factor. A sign-in whose signature counter does not move forward (a cloned authenticator) is
 * refused by the library. Adding or removing a passkey mails the user; removing one ends their other sessions.
 */
export function createPasskeysService(
  deps: Pick<BaseDeps, 'db' | 'clock' | 'publicUrl' | 'secret' | 'log'> & { sessions: SessionsService; mail: MailService; fresh: FreshFactorGuard },
) {
  const origin = new URL(deps.publicUrl).origin;
  const rpID = new URL(deps.publicUrl).hostname;
  /** The user handle stored in the passkey: opaque and stable per user (no e-mail or id is readable from it). */
  const userHandle = (userId: number) => crypto.createHmac('sha256', deps.secret).update(`passkey-user:${userId}`).digest().subarray(0, 16);
  const now = () => deps.clock.now();

  /** The mail to the passkey's owner, written to the outbox in the change's transaction. */
  async function enqueuePasskeyMail(tx: Parameters<typeof enqueueMail>[0], to: string, event: PasskeyMailProps['event'], passkeyName: string, key: string) {
    const props: PasskeyMailProps = { publicUrl: deps.publicUrl, event, passkeyName, at: onTime(now()) };
    const rendered = await renderMail(createElement(PasskeyMail, props), passkeyText(props));
    await enqueueMail(tx, { kind: `passkey-${event}`, to, subject: passkeySubject(props), ...rendered, dedupeKey: key, createdAt: now() });
  }
  /**
   * Checks a passkey's answer to a challenge against the stored key; the verified answer, or null (logged) when it is
   * not one. `requireUserVerification`: a PIN or biometric must have been given, not mere presence.
   */
  async function verifyAssertion(
    credential: WebauthnCredential,
    challenge: string,
    stored: PasskeyRow,
    opts: { requireUserVerification: boolean; purpose: string },
  ) {
    try {
      const verified = await verifyAuthenticationResponse({
        response: credential as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: stored.credentialId,
          publicKey: new Uint8Array(stored.publicKey),
          counter: stored.counter,
          transports: stored.transports as AuthenticatorTransport[],
        },
        requireUserVerification: opts.requireUserVerification,
      });
      return verified.verified ? verified : null;
    } catch (err) {
      deps.log.info({ passkey: stored.id, err: (err as Error).message }, `passkey ${opts.purpose} refused`);
      return null;
    }
  }
  const deliverSoon = () => void deps.mail.deliverNow().catch((err: unknown) => deps.log.warn({ err }, 'passkey mail not sent yet; the delivery job retries'));

  return {
    list: async (userId: number) => (await createPasskeysRepo(deps.db).ofUser(userId)).map(passkeyAnswer),

    async registrationOptions(auth: RequestAuth) {
      const repo = createPasskeysRepo(deps.db);
      const existing = await repo.ofUser(auth.user.id);
      if (existing.length >= PASSKEYS_MAX) throw new ConflictError(`You have ${PASSKEYS_MAX} passkeys: remove one first`);
      const name = [auth.user.firstName, auth.user.lastName].filter(Boolean).join(' ') || auth.user.email;
      const options = await generateRegistrationOptions({
        rpName: PRODUCT_NAME,
        rpID,
        userName: auth.user.email,
        userDisplayName: name,
        userID: userHandle(auth.user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: PASSKEY_CHALLENGE_MS,
      });
      await repo.addChallenge(
        { challenge: options.challenge, purpose: 'register', userId: auth.user.id, expiresAt: new Date(now().getTime() + PASSKEY_CHALLENGE_MS) },
        now(),
      );
      return options as unknown as Record<string, unknown>;
    },

    async register(auth: RequestAuth, name: string, credential: WebauthnCredential): Promise<Passkey> {
      const added = await deps.db.transaction(async (tx) => {
        // Checked (and a recovery code's proof used up) in this transaction: a refused answer leaves the proof unused.
        await deps.fresh.require(auth, { firstPasskey: true, tx });
        const repo = createPasskeysRepo(tx);
        const challenge = challengeOf(credential);
        const taken = challenge ? await repo.takeChallenge(challenge, 'register', now()) : undefined;
        if (!taken || taken.userId !== auth.user.id) throw new InputError(PASSKEY_MESSAGES.expired, [{ path: 'credential', message: 'no live challenge' }]);
        if ((await repo.countOf(auth.user.id)) >= PASSKEYS_MAX) throw new ConflictError(`You have ${PASSKEYS_MAX} passkeys: remove one first`);
        let verified;
        try {
          verified = await verifyRegistrationResponse({
            response: credential as unknown as RegistrationResponseJSON,
            expectedChallenge: challenge ?? '',
            expectedOrigin: origin,
            expectedRPID: rpID,
            requireUserVerification: true,
          });
        } catch (err) {
          deps.log.info({ userId: auth.user.id, err: (err as Error).message }, 'passkey registration refused');
          throw new InputError(`credential: ${PASSKEY_MESSAGES.notVerified}`, [{ path: 'credential', message: 'not verified' }]);
        }
        if (!verified.verified || !verified.registrationInfo) {
          throw new InputError(`credential: ${PASSKEY_MESSAGES.notVerified}`, [{ path: 'credential', message: 'not verified' }]);
        }
        const info = verified.registrationInfo;
        if (await repo.byCredentialId(info.credential.id)) throw new ConflictError('This passkey is already registered');
        const row = await repo.insert({
          userId: auth.user.id,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey),
          counter: info.credential.counter,
          transports: info.credential.transports ?? [],
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          name,
          createdAt: now(),
        });
        await enqueuePasskeyMail(tx, auth.user.email, 'added', row.name, `passkey-added:${row.id}`);
        deps.log.info({ userId: auth.user.id, passkey: row.id }, 'passkey added');
        return passkeyAnswer(row);
      });
      deliverSoon();
      return added;
    },

    async rename(userId: number, id: number, name: string): Promise<Passkey> {
      const row = await createPasskeysRepo(deps.db).rename(userId, id, name);
      if (!row) throw new NotFoundError(`You have no passkey ${id}`);
      return passkeyAnswer(row);
    },

    /** Removes one of the caller's passkeys, ends their other sessions and mails them, in one transaction. */
    async remove(auth: RequestAuth, id: number) {
      const userId = auth.user.id;
      const ended = await deps.db.transaction(async (tx) => {
        const removed = await createPasskeysRepo(tx).remove(userId, id);
        if (!removed) throw new NotFoundError(`You have no passkey ${id}`);
        await enqueuePasskeyMail(tx, auth.user.email, 'removed', removed.name, `passkey-removed:${id}`);
        return authRepo.deleteOtherSessionsOfUser(tx, userId, auth.sessionIdHash);
      });
      deliverSoon();
      deps.log.info({ userId, passkey: id, endedSessions: ended }, 'passkey removed');
      return { success: true, message: 'Passkey removed: it no longer signs you in' };
    },

    /** An admin resets a user's passkeys: all removed and the user's sessions ended, in one transaction. */
    /** Every passkey of a user removed and their sessions ended, and their API tokens revoked unless `keepTokens`. */
    async resetOf(userId: number, by: number, opts: { keepTokens?: boolean } = {}) {
      if (!(await createPasskeysRepo(deps.db).userExists(userId))) throw new NotFoundError(`User ${userId} not found`);
      const { removed, ended, revokedTokens } = await deps.db.transaction(async (tx) => ({
        removed: await createPasskeysRepo(tx).removeAllOf(userId),
        ended: await authRepo.deleteSessionsOfUser(tx, userId),
        revokedTokens: opts.keepTokens ? 0 : await createTokensRepo(tx).revokeAllOwn(userId),
      }));
      deps.log.warn({ userId, by, removed, ended, revokedTokens }, 'passkeys reset by an admin');
      const tokens = revokedTokens ? `, ${revokedTokens} API ${revokedTokens === 1 ? 'token' : 'tokens'} revoked` : '';
      return {
        success: true,
        message: `${removed} ${removed === 1 ? 'passkey' : 'passkeys'} removed${tokens} and ${ended} ${ended === 1 ? 'session' : 'sessions'} ended: they sign in with a code and add a new passkey`,
      };
    },

    /** Options for the signed-in user to confirm it is them with one of their own passkeys, user verification required. */
    async reauthOptions(auth: RequestAuth) {
      const repo = createPasskeysRepo(deps.db);
      const mine = await repo.ofUser(auth.user.id);
      if (mine.length === 0) throw new ConflictError(PASSKEY_MESSAGES.noPasskey);
      const options = await generateAuthenticationOptions({
        rpID,
        userVerification: 'required',
        allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
        timeout: PASSKEY_CHALLENGE_MS,
      });
      await repo.addChallenge(
        { challenge: options.challenge, purpose: 'reauth', userId: auth.user.id, expiresAt: new Date(now().getTime() + PASSKEY_CHALLENGE_MS) },
        now(),
      );
      return options as unknown as Record<string, unknown>;
    },

    /**
     * Verifies the caller's answer to their step-up options (their own passkey, user verified) and replaces their
     * session by one that records the passkey proved now.
     */
    async reauth(auth: RequestAuth, credential: WebauthnCredential, client: ClientInfo): Promise<IssuedSession> {
      // A refused answer still uses its challenge up (the transaction commits; the error is thrown after it).
      const outcome = await deps.db.transaction(async (tx): Promise<{ error: InputError } | { session: IssuedSession }> => {
        const repo = createPasskeysRepo(tx);
        const challenge = challengeOf(credential);
        const taken = challenge ? await repo.takeChallenge(challenge, 'reauth', now()) : undefined;
        if (!challenge || !taken || taken.userId !== auth.user.id) return { error: credentialError(PASSKEY_MESSAGES.expired) };
        const stored = await repo.lockedByCredentialId(credential.id);
        if (!stored || stored.userId !== auth.user.id) return { error: credentialError(PASSKEY_MESSAGES.notYours) };
        const verified = await verifyAssertion(credential, challenge, stored, { requireUserVerification: true, purpose: 'step-up' });
        if (!verified) return { error: credentialError(PASSKEY_MESSAGES.notVerified) };
        await repo.used(stored.id, verified.authenticationInfo.newCounter, verified.authenticationInfo.credentialBackedUp, now());
        return { session: await deps.sessions.stepUp(tx, auth, client) };
      });
      if ('error' in outcome) throw outcome.error;
      deps.log.info({ userId: auth.user.id }, 'user confirmed with a passkey');
      return outcome.session;
    },

    async signInOptions() {
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_MS });
      await createPasskeysRepo(deps.db).addChallenge(
        { challenge: options.challenge, purpose: 'sign-in', userId: null, expiresAt: new Date(now().getTime() + PASSKEY_CHALLENGE_MS) },
        now(),
      );
      return options as unknown as Record<string, unknown>;
    },

    /** Verifies a passkey's answer and begins a session that says it was proven with a passkey. */
    async signIn(credential: WebauthnCredential, client: ClientInfo): Promise<IssuedSession> {
      const outcome = await deps.db.transaction(async (tx) => {
        const repo = createPasskeysRepo(tx);
        const challenge = challengeOf(credential);
        if (!challenge || !(await repo.takeChallenge(challenge, 'sign-in', now()))) return { error: new AuthenticationError(PASSKEY_MESSAGES.expired) };
        const stored = await repo.lockedByCredentialId(credential.id);
        if (!stored) return { error: new AuthenticationError(PASSKEY_MESSAGES.unknown) };
        const verified = await verifyAssertion(credential, challenge, stored, { requireUserVerification: false, purpose: 'sign-in' });
        if (!verified) return { error: new AuthenticationError(PASSKEY_MESSAGES.notVerified) };
        const at = now();
        await repo.used(stored.id, verified.authenticationInfo.newCounter, verified.authenticationInfo.credentialBackedUp, at);
        await authRepo.markSignedIn(tx, stored.userId, at);
        // Only a verified user (PIN or biometric), not mere presence, proves the admin second factor.
        const session = await deps.sessions.signIn(tx, stored.userId, client, 'passkey', verified.authenticationInfo.userVerified);
        return { session, userId: stored.userId };
      });
      if ('error' in outcome) throw outcome.error;
      deps.log.info({ userId: outcome.userId }, 'user signed in with a passkey');
      return outcome.session;
    },
  };
}
export type PasskeysService = ReturnType<typeof createPasskeysService>;
