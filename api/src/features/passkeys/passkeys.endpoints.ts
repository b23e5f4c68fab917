import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { freshFactorGuard } from '../../http/fresh-factor.js';
import { perAddressLimiter, perUserLimiter } from '../../http/rate-limit-store.js';
import { clientOf } from '../auth/auth.endpoints.js';
import { readSessionCookie, setSessionCookie } from '../auth/session-cookie.js';
import { createPasskeysService, PASSKEY_MESSAGES } from './passkeys.service.js';

/** Passkey sign-in attempts (options asked, or answers sent) per client address in a quarter of an hour. */
export const PASSKEY_SIGN_INS_PER_ADDRESS = 60;
/** Step-up options or answers one user may send in a quarter of an hour. */
export const REAUTH_PER_USER = 30;
/** Registration options (each stores a challenge) one user may ask for in a quarter of an hour. */
export const REGISTRATION_OPTIONS_PER_USER = 30;

/**
 * /profile's passkeys and signing in with one. Registration is the signed-in user's own; sign-in is public and limited
 * per client address (each options request stores a challenge), and like a code sign-in it replaces any session
 * cookie the browser had.
 */
export function createPasskeysEndpoints(ctx: AppContext): EndpointImplementation[] {
  // Adding or removing a passkey changes what proves the admin factor: an admin confirms it with a recent passkey.
  const fresh = freshFactorGuard(ctx);
  const service = createPasskeysService({ ...ctx, sessions: ctx.services.auth.sessions, mail: ctx.services.mail, fresh });
  const limited = perAddressLimiter({
    name: 'passkey-sign-in',
    windowMs: 15 * 60 * 1000,
    limit: PASSKEY_SIGN_INS_PER_ADDRESS,
    message: 'Too many passkey sign-ins from this network: wait a few minutes, or sign in with a code',
    db: ctx.db,
  });
  const registrationLimited = perUserLimiter({
    name: 'passkey-registration-options',
    windowMs: 15 * 60 * 1000,
    limit: REGISTRATION_OPTIONS_PER_USER,
    message: 'Too many passkey registrations started: wait a few minutes',
    db: ctx.db,
  });
  // Each step-up options request stores a challenge: a few per user.
  const reauthLimited = perUserLimiter({
    name: 'passkey-reauth',
    windowMs: 15 * 60 * 1000,
    limit: REAUTH_PER_USER,
    message: 'Too many passkey confirmations started: wait a few minutes',
    db: ctx.db,
  });
  return [
    implement(endpoints.passkeys.list, ({ auth }) => service.list(auth.user.id)),
    implement(endpoints.passkeys.registrationOptions, ({ auth }) => service.registrationOptions(auth), {
      middleware: [fresh.middleware({ firstPasskey: true, consume: false }), registrationLimited],
    }),
    implement(endpoints.passkeys.register, async ({ auth, body }) => Reply.status(201, await service.register(auth, body.name, body.credential))),
    implement(endpoints.passkeys.rename, ({ auth, params, body }) => service.rename(auth.user.id, params.id, body.name)),
    implement(endpoints.passkeys.remove, ({ auth, params }) => service.remove(auth, params.id), { middleware: [fresh.middleware()] }),
    implement(endpoints.passkeys.resetOfUser, ({ params, query, auth }) => service.resetOf(params.id, auth.user.id, { keepTokens: query.keepTokens })),
    implement(endpoints.passkeys.reauthOptions, ({ auth }) => service.reauthOptions(auth), { middleware: [reauthLimited] }),
    implement(
      endpoints.passkeys.reauth,
      async ({ auth, body, req, res }) => {
        const session = await service.reauth(auth, body.credential, clientOf(req));
        setSessionCookie(res, ctx.publicUrl, session.token, session.maxAgeMs);
        return { success: true, message: PASSKEY_MESSAGES.confirmed };
      },
      { middleware: [reauthLimited] },
    ),
    implement(endpoints.passkeys.signInOptions, () => service.signInOptions(), { middleware: [limited] }),
    implement(
      endpoints.passkeys.signIn,
      async ({ body, req, res }) => {
        const session = await service.signIn(body.credential, clientOf(req));
        // A session cookie from before sign-in is replaced, never reused (no session fixation).
        await ctx.services.auth.sessions.end(readSessionCookie(req, ctx.publicUrl));
        setSessionCookie(res, ctx.publicUrl, session.token, session.maxAgeMs);
        return { success: true, message: PASSKEY_MESSAGES.signedIn };
      },
      { middleware: [limited] },
    ),
  ];
}
