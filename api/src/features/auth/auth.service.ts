import crypto from 'node:crypto';
import {
  formatCount,
  isRecoveryCodeForm,
  normalizeRecoveryCode,
  RECOVERY_CODE_LENGTH,
  type ResultMessage,
  ROLE_NAMES,
  type SessionUserResponse,
  type SignupRequest,
  type User,
  type UserRoleEntry,
} from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { RequestAuth } from '../../http/auth.js';
import { clientAddressKey } from '../../http/client-address.js';
import { AuthenticationError, RateLimitError, type DomainError } from '../../lib/errors.js';
import type { MailService } from '../../mail/mail.service.js';
import { purgeSealedContent } from '../../mail/outbox.repo.js';
import { authRepo } from './auth.repo.js';
import { noAccountMail, signInMail } from './auth.mails.js';
import { createSessionsService, type ClientInfo, type IssuedSession } from './sessions.service.js';

export type { ClientInfo } from './sessions.service.js';

/** Messages the client shows. */
export const AUTH_MESSAGES = {
  codeSent: 'Please check your email for the 6-digit verification code.',
  signedIn: 'Successfully signed in',
  signedOut: 'Signed out successfully',
  signedOutEverywhere: 'Signed out on every device',
  invalidCode: 'Invalid verification code. Please try again.',
  expiredCode: 'This verification code has expired. Request a new code.',
  noCode: 'No active verification code for this email. Request a new code.',
  tooManyAttempts: 'Too many attempts. Request a new code.',
  tooManyForEmail: (minutes: number) => `Too many verification codes requested for this email. Please try again in ${formatCount(minutes, 'minute')}.`,
  tooManyFromAddress: (minutes: number) => `Too many sign-in requests from your network. Please try again in ${formatCount(minutes, 'minute')}.`,
  accountCoolDown: (minutes: number) =>
    `Too many wrong codes for this email. For your security, sign-in is paused for ${formatCount(minutes, 'minute')}; then request a new code.`,
  tooManyVerifyFromAddress: (minutes: number) => `Too many failed sign-in attempts from your network. Please try again in ${formatCount(minutes, 'minute')}.`,
} as const;

export type SignedIn = IssuedSession;
export type AuthService = ReturnType<typeof createAuthService>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The per-account cap counts wrong codes over this window. */
export const ACCOUNT_CAP_WINDOW_MS = HOUR;

/** A sign-in code: six digits from a CSPRNG. */
const newCode = () => crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');

/** The keyed hash a code is stored as: the code itself is never kept. */
export const codeHashOf = (secret: string, email: string, code: string) => crypto.createHmac('sha256', secret).update(`${email}:${code}`).digest('hex');

/** A recovery code: RECOVERY_CODE_LENGTH base32 characters from 16 CSPRNG bytes (128 bits). */
function newRecoveryCode(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bytes = crypto.randomBytes(16);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out.slice(0, RECOVERY_CODE_LENGTH);
}

/** A code as typed, in the form its hash was made from: a recovery code in capitals without separators. */
const checkedFormOf = (code: string) => (isRecoveryCodeForm(code) ? normalizeRecoveryCode(code) : code);

/** How long a recovery code printed by `npm run admin:recover` works. */
export const RECOVERY_CODE_MINUTES = 15;

/**
 * A one-time code for an admin who lost their passkeys (or the last admin, with no colleague to reset them): entered in
 * the sign-in dialog like a mailed code, it opens a session whose second factor is satisfied once — within
 * ADMIN_REAUTH_MINUTES and until the first guarded action (adding the new passkey) uses it up. 128 random bits, so
 * guessing is hopeless whatever the attempt limits; works once. Supersedes their open codes. Refused for anyone who does
 * not hold Admin.
 */
export async function issueRecoveryCode(db: DbOrTx, secret: string, email: string, now: Date): Promise<{ code: string; expiresAt: Date }> {
  const normalized = email.trim().toLowerCase();
  const user = await authRepo.findUserByEmail(db, normalized);
  if (!user || !(await authRepo.userHasRole(db, user.id, ROLE_NAMES.admin))) throw new Error(`${normalized} is not an admin of this installation`);
  const code = newRecoveryCode();
  const expiresAt = new Date(now.getTime() + RECOVERY_CODE_MINUTES * MINUTE);
  await authRepo.supersedeOpenCodes(db, normalized, now);
  await authRepo.insertCode(db, {
    email: normalized,
    codeHash: codeHashOf(secret, normalized, code),
    requestIp: null,
    createdAt: now,
    expiresAt,
    purpose: 'recovery',
  });
  return { code, expiresAt };
}

/** The signed-in user as the api shows them to themselves. */
export function toUser(auth: RequestAuth): User {
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
    secondFactor: auth.secondFactor,
  };
}

/** GET /api/auth/session-user's answer, which a signed-in user's server-rendered page also starts from. */
export function sessionAnswer(auth: RequestAuth | null): SessionUserResponse {
  return { user: auth ? toUser(auth) : null };
}

export function createAuthService(deps: Pick<BaseDeps, 'db' | 'clock' | 'config' | 'secret' | 'log' | 'publicUrl'> & { mail: MailService }) {
  const { db, clock, config, mail } = deps;
  const codeTtlMs = config.SIGN_IN_CODE_TTL_MINUTES * MINUTE;
  const windowMs = config.SIGN_IN_RATE_WINDOW_MINUTES * MINUTE;
  const sessions = createSessionsService(deps);

  /** HMAC keyed with the server secret and bound to the e-mail: a leaked table does not give codes away. */
  const hashCode = (email: string, code: string) => codeHashOf(deps.secret, email, code);
  const minutesUntil = (until: number, now: Date) => Math.max(1, Math.ceil((until - now.getTime()) / MINUTE));

  /**
   * Issues a code for the e-mail. In one transaction (serialised per e-mail): both sending limits are checked first —
   * a refused request renders and stores nothing —, older codes are superseded, the code's HMAC is stored and the mail
   * is written to the outbox encrypted (it expires with the code). An address with neither an account nor a pending
   * sign-up gets a "no account yet" mail instead, so the answer is the same whether or not the account exists.
   */
  async function issueCode(email: string, client: ClientInfo, signup?: { firstName: string; lastName: string }): Promise<void> {
    const now = clock.now();
    const since = new Date(now.getTime() - windowMs);
    const clientKey = clientAddressKey(client.ip);
    await db.transaction(async (tx) => {
      await authRepo.lockEmail(tx, email);
      const perEmail = await authRepo.codesRequestedSince(tx, { email }, since);
      if (perEmail.count >= config.SIGN_IN_SENDS_PER_EMAIL) {
        throw new RateLimitError(AUTH_MESSAGES.tooManyForEmail(minutesUntil((perEmail.oldest ?? now).getTime() + windowMs, now)));
      }
      if (clientKey) {
        const perIp = await authRepo.codesRequestedSince(tx, { ip: clientKey }, since);
        if (perIp.count >= config.SIGN_IN_SENDS_PER_IP) {
          throw new RateLimitError(AUTH_MESSAGES.tooManyFromAddress(minutesUntil((perIp.oldest ?? now).getTime() + windowMs, now)));
        }
      }
      const expiresAt = new Date(now.getTime() + codeTtlMs);
      const user = await authRepo.findUserByEmail(tx, email);
      let pending = false;
      if (signup) {
        // No account yet: only the verified code creates it, with these names (an existing account only gets names it lacks).
        await authRepo.upsertPendingSignup(tx, { email, ...signup, now, expiresAt });
        pending = true;
      } else if (!user && (await authRepo.livePendingSignup(tx, email, now))) {
        await authRepo.extendPendingSignup(tx, email, expiresAt);
        pending = true;
      }
      const sendsCode = Boolean(user) || pending;
      const code = newCode();
      await authRepo.supersedeOpenCodes(tx, email, now, { keepRecovery: true });
      // A row is written for unknown addresses too: it counts toward the rate limits; its code is never sent.
      await authRepo.insertCode(tx, { email, codeHash: hashCode(email, code), requestIp: clientKey, createdAt: now, expiresAt });
      if (sendsCode) {
        const content = await signInMail({ code, validMinutes: config.SIGN_IN_CODE_TTL_MINUTES, publicUrl: deps.publicUrl });
        await mail.enqueue(tx, { kind: 'sign-in-code', to: email, ...content, sensitive: { expiresAt } });
      } else {
        await mail.enqueue(tx, { kind: 'sign-in-no-account', to: email, ...(await noAccountMail(deps.publicUrl)) });
      }
    });
    mail.kick();
  }

  /** Refusals that come before the code is even looked at: the client's throttle and the account's cool-down. */
  async function throttled(tx: DbOrTx, email: string, clientKey: string | null, now: Date): Promise<DomainError | null> {
    if (clientKey) {
      const since = new Date(now.getTime() - windowMs);
      const failures = await authRepo.failuresFromClientSince(tx, clientKey, since);
      if (failures.count >= config.SIGN_IN_VERIFY_FAILURES_PER_IP) {
        return new RateLimitError(AUTH_MESSAGES.tooManyVerifyFromAddress(minutesUntil((failures.oldest ?? now).getTime() + windowMs, now)));
      }
    }
    const capReached = await authRepo.capReachedAt(tx, email, new Date(now.getTime() - ACCOUNT_CAP_WINDOW_MS), config.SIGN_IN_WRONG_CODES_PER_ACCOUNT);
    if (capReached) return new RateLimitError(AUTH_MESSAGES.accountCoolDown(minutesUntil(capReached.getTime() + ACCOUNT_CAP_WINDOW_MS, now)));
    return null;
  }

  return {
    sessions,

    /** Records the sign-up as pending (no account until the code is verified) and sends a code. */
    async signup(input: SignupRequest, client: ClientInfo): Promise<ResultMessage> {
      await issueCode(input.email, client, { firstName: input.firstName, lastName: input.lastName });
      return { success: true, message: AUTH_MESSAGES.codeSent };
    },

    async sendCode(email: string, client: ClientInfo): Promise<ResultMessage> {
      await issueCode(email, client);
      return { success: true, message: AUTH_MESSAGES.codeSent };
    },

    /**
     * Checks the code; on success signs the user in (creating the account of a pending sign-up) and returns the new
     * session. Every failure is recorded (committed although the request fails) for the client throttle; a wrong code
     * against a live code also counts toward the account's cap and burns the code at the SIGN_IN_MAX_ATTEMPTS-th try.
     */
    async verifyCode(email: string, code: string, client: ClientInfo): Promise<SignedIn> {
      const now = clock.now();
      const clientKey = clientAddressKey(client.ip);
      const outcome = await db.transaction(async (tx): Promise<{ error: DomainError } | { signedIn: SignedIn; userId: number; recovery: boolean }> => {
        await authRepo.lockEmail(tx, email);
        const refused = await throttled(tx, email, clientKey, now);
        if (refused) return { error: refused };
        const fail = async (error: DomainError, wrongCode = false) => {
          await authRepo.recordFailure(tx, { email, clientKey, wrongCode, now });
          return { error };
        };
        const row = await authRepo.latestOpenCodeForUpdate(tx, email, now);
        if (!row) return fail(new AuthenticationError(AUTH_MESSAGES.noCode));
        if (row.attempts >= config.SIGN_IN_MAX_ATTEMPTS) return fail(new RateLimitError(AUTH_MESSAGES.tooManyAttempts));
        if (row.expiresAt.getTime() <= now.getTime()) return fail(new AuthenticationError(AUTH_MESSAGES.expiredCode));
        const existing = await authRepo.findUserByEmail(tx, email);
        const pending = await authRepo.livePendingSignup(tx, email, now);
        // Who signs in: the existing account, or the one a pending sign-up creates once the code is right.
        const account = existing ? ({ kind: 'existing', user: existing } as const) : pending ? ({ kind: 'signUp', pending } as const) : null;
        const expected = Buffer.from(row.codeHash, 'hex');
        const given = Buffer.from(hashCode(email, checkedFormOf(code)), 'hex');
        if (!account || expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
          const attempts = await authRepo.recordWrongAttempt(tx, row.id);
          const burnt = attempts >= config.SIGN_IN_MAX_ATTEMPTS;
          return fail(burnt ? new RateLimitError(AUTH_MESSAGES.tooManyAttempts) : new AuthenticationError(AUTH_MESSAGES.invalidCode), true);
        }
        await authRepo.consumeCode(tx, row.id, now);
        const user =
          account.kind === 'existing'
            ? account.user
            : await authRepo.createUser(tx, { email, firstName: account.pending.firstName, lastName: account.pending.lastName, now });
        if (existing && pending) await authRepo.fillMissingNames(tx, existing.id, pending);
        if (pending) await authRepo.deletePendingSignup(tx, email);
        await authRepo.markSignedIn(tx, user.id, now);
        if (!user.emailVerifiedAt) await authRepo.grantRole(tx, user.id, ROLE_NAMES.user, now);
        if (config.ADMIN_EMAILS.includes(email)) await authRepo.grantRole(tx, user.id, ROLE_NAMES.admin, now);
        // A recovery code printed on the server stands in for the admin's lost passkey, once.
        const recovery = row.purpose === 'recovery';
        return { signedIn: await sessions.signIn(tx, user.id, client, recovery ? 'recovery' : 'code', recovery), userId: user.id, recovery };
      });
      if ('error' in outcome) throw outcome.error;
      if (outcome.recovery) deps.log.warn({ userId: outcome.userId }, 'admin signed in with a recovery code');
      deps.log.info({ userId: outcome.userId }, 'user signed in');
      return outcome.signedIn;
    },

    toUser,
    sessionAnswer,

    /** One entry per effective role (the impersonated one while impersonating); [] for guests. */
    async userRoles(auth: RequestAuth | null | undefined): Promise<UserRoleEntry[]> {
      if (!auth) return [];
      const assignments = await authRepo.assignmentIds(db, auth.user.id);
      return auth.roles.map((r) => ({ id: assignments.get(r.id) ?? r.id, roleId: r.id, role: { id: r.id, name: r.name } }));
    },

    /**
     * Removes expired sessions, sign-in codes and failures older than a day, unverified sign-ups whose code expired,
     * and the encrypted content of outbox mail that was sent, failed or expired (the safety net of sealed mail).
     */
    async cleanup(): Promise<{ sessions: number; codes: number; pendingSignups: number; sealedMail: number }> {
      const now = clock.now();
      const removed = await authRepo.cleanup(db, now, new Date(now.getTime() - DAY), new Date(now.getTime() - sessions.policy.absoluteMs));
      return { ...removed, sealedMail: await purgeSealedContent(db, now) };
    },
  };
}
