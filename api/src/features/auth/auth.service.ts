import crypto from 'node:crypto';
import { ROLE_NAMES, type ResultMessage, type SignupRequest, type User, type UserRoleEntry } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { RequestAuth } from '../../http/auth.js';
import { hashSessionToken, newSessionToken } from '../../http/auth.js';
import { AuthenticationError, RateLimitError } from '../../http/errors.js';
import type { MailService } from '../../mail/mail.service.js';
import { authRepo } from './auth.repo.js';
import { noAccountMail, signInMail } from './auth.mails.js';

/** Messages the client shows (spec 01 §8 toasts show the server message on failure). */
export const AUTH_MESSAGES = {
  codeSent: 'Please check your email for the 6-digit verification code.',
  signedIn: 'Successfully signed in',
  signedOut: 'Signed out successfully',
  invalidCode: 'Invalid verification code. Please try again.',
  expiredCode: 'This verification code has expired. Request a new code.',
  noCode: 'No active verification code for this email. Request a new code.',
  tooManyAttempts: 'Too many attempts. Request a new code.',
  tooManyForEmail: (minutes: number) =>
    `Too many verification codes requested for this email. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  tooManyFromAddress: (minutes: number) =>
    `Too many sign-in requests from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface SignedIn {
  token: string;
  maxAgeMs: number;
}

export type AuthService = ReturnType<typeof createAuthService>;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function createAuthService(deps: Pick<BaseDeps, 'db' | 'clock' | 'config' | 'secret' | 'log' | 'publicUrl'> & { mail: MailService }) {
  const { db, clock, config, mail } = deps;
  const codeTtlMs = config.SIGN_IN_CODE_TTL_MINUTES * MINUTE;
  const windowMs = config.SIGN_IN_RATE_WINDOW_MINUTES * MINUTE;
  const sessionTtlMs = config.SESSION_TTL_DAYS * DAY;

  /** HMAC keyed with the server secret and bound to the e-mail: a leaked table does not give codes away. */
  const hashCode = (email: string, code: string) => crypto.createHmac('sha256', deps.secret).update(`${email}:${code}`).digest('hex');

  const minutesUntil = (oldest: Date | null, now: Date) =>
    Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime()) + windowMs - now.getTime()) / MINUTE));

  /**
   * Issues a code for the e-mail: checks both rate limits, supersedes older codes, stores the hash and enqueues the
   * mail in the same transaction. An address without an account gets a "no account yet" mail instead of a code,
   * so the answer (and its timing, roughly) is the same whether or not the account exists.
   */
  async function issueCode(email: string, client: ClientInfo, beforeIssue?: (tx: DbOrTx) => Promise<void>): Promise<void> {
    const now = clock.now();
    const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
    // Rendered before the transaction so the e-mail's lock is held only for the writes.
    const codeMail = await signInMail({ code, validMinutes: config.SIGN_IN_CODE_TTL_MINUTES, publicUrl: deps.publicUrl });
    const since = new Date(now.getTime() - windowMs);
    await db.transaction(async (tx) => {
      await authRepo.lockEmail(tx, email);
      const perEmail = await authRepo.codesRequestedSince(tx, { email }, since);
      if (perEmail.count >= config.SIGN_IN_SENDS_PER_EMAIL) throw new RateLimitError(AUTH_MESSAGES.tooManyForEmail(minutesUntil(perEmail.oldest, now)));
      if (client.ip) {
        const perIp = await authRepo.codesRequestedSince(tx, { ip: client.ip }, since);
        if (perIp.count >= config.SIGN_IN_SENDS_PER_IP) throw new RateLimitError(AUTH_MESSAGES.tooManyFromAddress(minutesUntil(perIp.oldest, now)));
      }
      if (beforeIssue) await beforeIssue(tx);
      const user = await authRepo.findUserByEmail(tx, email);
      await authRepo.supersedeOpenCodes(tx, email, now);
      // A row is written for unknown addresses too: it counts toward the rate limits; its code is never sent.
      await authRepo.insertCode(tx, { email, codeHash: hashCode(email, code), requestIp: client.ip, createdAt: now, expiresAt: new Date(now.getTime() + codeTtlMs) });
      const content = user ? codeMail : await noAccountMail(deps.publicUrl);
      await mail.enqueue(tx, { kind: user ? 'sign-in-code' : 'sign-in-no-account', to: email, ...content });
    });
    mail.kick();
  }

  return {
    /** Creates the account (or keeps the existing one, filling in missing names) and sends a code. */
    async signup(input: SignupRequest, client: ClientInfo): Promise<ResultMessage> {
      await issueCode(input.email, client, (tx) => authRepo.upsertSignupUser(tx, input, clock.now()));
      return { success: true, message: AUTH_MESSAGES.codeSent };
    },

    async sendCode(email: string, client: ClientInfo): Promise<ResultMessage> {
      await issueCode(email, client);
      return { success: true, message: AUTH_MESSAGES.codeSent };
    },

    /** Checks the code; on success signs the user in and returns the new session token (for the cookie). */
    async verifyCode(email: string, code: string, client: ClientInfo): Promise<SignedIn> {
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const row = await authRepo.latestOpenCodeForUpdate(tx, email);
        if (!row) return { error: new AuthenticationError(AUTH_MESSAGES.noCode) };
        if (row.attempts >= config.SIGN_IN_MAX_ATTEMPTS) return { error: new RateLimitError(AUTH_MESSAGES.tooManyAttempts) };
        if (row.expiresAt.getTime() <= now.getTime()) return { error: new AuthenticationError(AUTH_MESSAGES.expiredCode) };
        const user = await authRepo.findUserByEmail(tx, email);
        const expected = Buffer.from(row.codeHash, 'hex');
        const given = Buffer.from(hashCode(email, code), 'hex');
        if (!user || expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
          // Committed even though the request fails: the wrong try must count.
          const attempts = await authRepo.recordWrongAttempt(tx, row.id);
          return {
            error:
              attempts >= config.SIGN_IN_MAX_ATTEMPTS
                ? new RateLimitError(AUTH_MESSAGES.tooManyAttempts)
                : new AuthenticationError(AUTH_MESSAGES.invalidCode),
          };
        }
        await authRepo.consumeCode(tx, row.id, now);
        await authRepo.markSignedIn(tx, user.id, now);
        if (!user.emailVerifiedAt) await authRepo.grantRole(tx, user.id, ROLE_NAMES.user, now);
        if (config.ADMIN_EMAILS.includes(email)) await authRepo.grantRole(tx, user.id, ROLE_NAMES.admin, now);
        const token = newSessionToken();
        await authRepo.createSession(tx, {
          idHash: hashSessionToken(token),
          userId: user.id,
          now,
          expiresAt: new Date(now.getTime() + sessionTtlMs),
          ip: client.ip,
          userAgent: client.userAgent?.slice(0, 500) ?? null,
        });
        return { token, userId: user.id };
      });
      if ('error' in outcome) throw outcome.error;
      deps.log.info({ userId: outcome.userId }, 'user signed in');
      return { token: outcome.token, maxAgeMs: sessionTtlMs };
    },

    async logout(sessionToken: string | undefined): Promise<void> {
      if (sessionToken) await authRepo.deleteSession(db, hashSessionToken(sessionToken));
    },

    sessionMaxAgeMs: sessionTtlMs,

    toUser(auth: RequestAuth): User {
      const u = auth.user;
      return {
        id: u.id,
        email: u.email,
        firstName: u.firstName,
        lastName: u.lastName,
        profileImageUrl: u.profileImageUrl,
        lastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
        roles: auth.roles.map((r) => ({ id: r.id, name: r.name })),
        impersonatedRole: auth.impersonatedRole,
      };
    },

    /** One entry per effective role (the impersonated one while impersonating); [] for guests. */
    async userRoles(auth: RequestAuth | null | undefined): Promise<UserRoleEntry[]> {
      if (!auth) return [];
      const assignments = await authRepo.assignmentIds(db, auth.user.id);
      return auth.roles.map((r) => ({ id: assignments.get(r.id) ?? r.id, roleId: r.id, role: { id: r.id, name: r.name } }));
    },

    /** Removes expired sessions and sign-in codes older than a day. */
    async cleanup(): Promise<{ sessions: number; codes: number }> {
      const now = clock.now();
      return authRepo.cleanup(db, now, new Date(now.getTime() - DAY));
    },
  };
}
