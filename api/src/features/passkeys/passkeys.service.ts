import crypto from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { PASSKEYS_MAX, PRODUCT_NAME, type Passkey, type WebauthnCredential } from '@radar/contracts';
import type { BaseDeps } from '../../deps.js';
import type { RequestAuth } from '../../http/auth.js';
import { AuthenticationError, ConflictError, InputError, NotFoundError } from '../../lib/errors.js';
import { authRepo } from '../auth/auth.repo.js';
import type { ClientInfo, IssuedSession, SessionsService } from '../auth/sessions.service.js';
import { createPasskeysRepo, type PasskeyRow } from './passkeys.repo.js';

/** How long the browser has to answer a ceremony's options. */
export const PASSKEY_CHALLENGE_MS = 5 * 60 * 1000;

export const PASSKEY_MESSAGES = {
  notVerified: 'This passkey could not be verified: try again, or sign in with a code',
  unknown: 'This passkey is not registered here: sign in with a code, then add it on your profile',
  expired: 'The passkey prompt expired: try again',
  signedIn: 'Signed in with your passkey',
};

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
 * is verified, so a replayed answer finds none). Passkeys are discoverable (the user picks one; no e-mail is typed),
 * user verification is preferred, attestation is not asked for (no device data is collected). A sign-in whose
 * signature counter does not move forward (a cloned authenticator) is refused by the library.
 */
export function createPasskeysService(deps: Pick<BaseDeps, 'db' | 'clock' | 'publicUrl' | 'secret' | 'log'> & { sessions: SessionsService }) {
  const origin = new URL(deps.publicUrl).origin;
  const rpID = new URL(deps.publicUrl).hostname;
  /** The user handle stored in the passkey: opaque and stable per user (no e-mail or id is readable from it). */
  const userHandle = (userId: number) => crypto.createHmac('sha256', deps.secret).update(`passkey-user:${userId}`).digest().subarray(0, 16);
  const now = () => deps.clock.now();

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
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        timeout: PASSKEY_CHALLENGE_MS,
      });
      await repo.addChallenge(
        { challenge: options.challenge, purpose: 'register', userId: auth.user.id, expiresAt: new Date(now().getTime() + PASSKEY_CHALLENGE_MS) },
        now(),
      );
      return options as unknown as Record<string, unknown>;
    },

    async register(auth: RequestAuth, name: string, credential: WebauthnCredential): Promise<Passkey> {
      return deps.db.transaction(async (tx) => {
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
            requireUserVerification: false,
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
        deps.log.info({ userId: auth.user.id, passkey: row.id }, 'passkey added');
        return passkeyAnswer(row);
      });
    },

    async rename(userId: number, id: number, name: string): Promise<Passkey> {
      const row = await createPasskeysRepo(deps.db).rename(userId, id, name);
      if (!row) throw new NotFoundError(`You have no passkey ${id}`);
      return passkeyAnswer(row);
    },

    async remove(userId: number, id: number) {
      if (!(await createPasskeysRepo(deps.db).remove(userId, id))) throw new NotFoundError(`You have no passkey ${id}`);
      deps.log.info({ userId, passkey: id }, 'passkey removed');
      return { success: true, message: 'Passkey removed: it no longer signs you in' };
    },

    /** An admin resets a user's passkeys: all removed and the user's sessions ended, in one transaction. */
    async resetOf(userId: number, by: number) {
      if (!(await createPasskeysRepo(deps.db).userExists(userId))) throw new NotFoundError(`User ${userId} not found`);
      const { removed, ended } = await deps.db.transaction(async (tx) => ({
        removed: await createPasskeysRepo(tx).removeAllOf(userId),
        ended: await authRepo.deleteSessionsOfUser(tx, userId),
      }));
      deps.log.warn({ userId, by, removed, ended }, 'passkeys reset by an admin');
      return {
        success: true,
        message: `${removed} ${removed === 1 ? 'passkey' : 'passkeys'} removed and ${ended} ${ended === 1 ? 'session' : 'sessions'} ended: they sign in with a code and add a new passkey`,
      };
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
        let verified;
        try {
          verified = await verifyAuthenticationResponse({
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
            requireUserVerification: false,
          });
        } catch (err) {
          deps.log.info({ passkey: stored.id, err: (err as Error).message }, 'passkey sign-in refused');
          return { error: new AuthenticationError(PASSKEY_MESSAGES.notVerified) };
        }
        if (!verified.verified) return { error: new AuthenticationError(PASSKEY_MESSAGES.notVerified) };
        const at = now();
        await repo.used(stored.id, verified.authenticationInfo.newCounter, verified.authenticationInfo.credentialBackedUp, at);
        await authRepo.markSignedIn(tx, stored.userId, at);
        return { session: await deps.sessions.signIn(tx, stored.userId, client, 'passkey'), userId: stored.userId };
      });
      if ('error' in outcome) throw outcome.error;
      deps.log.info({ userId: outcome.userId }, 'user signed in with a passkey');
      return outcome.session;
    },
  };
}
export type PasskeysService = ReturnType<typeof createPasskeysService>;
