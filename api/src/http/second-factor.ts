import type { SecondFactorState } from '@radar/contracts';
import type { Config } from '../config.js';
import { NotAllowedError } from '../lib/errors.js';

/** How a session's sign-in was proven: an e-mailed code, a passkey, a recovery code from the CLI, or an API token. */
export type VerifiedWith = 'code' | 'passkey' | 'recovery' | 'token';

export type SecondFactorConfig = Pick<Config, 'ADMIN_SECOND_FACTOR' | 'ADMIN_CODE_FRESH_HOURS' | 'ADMIN_REAUTH_MINUTES'>;

export interface SecondFactor {
  state: SecondFactorState;
  hasPasskey: boolean;
}

/** What a session says about its proofs. */
export interface SessionProofs {
  verifiedWith: VerifiedWith;
  /** When the user signed in. */
  createdAt: Date;
  /** When a passkey with user verification was last proved in this session, or a recovery code entered; else null. */
  factorVerifiedAt: Date | null;
}

const reauthMs = (config: Pick<Config, 'ADMIN_REAUTH_MINUTES'>) => config.ADMIN_REAUTH_MINUTES * 60 * 1000;

/**
 * Whether a passkey proof (or an unused recovery code) of the session still counts. A passkey verified with user
 * verification counts for the session's life; a recovery code only within ADMIN_REAUTH_MINUTES and until the first
 * action it allows (that action clears it).
 */
function factorProved(config: Pick<Config, 'ADMIN_REAUTH_MINUTES'>, session: SessionProofs, now: Date): boolean {
  if (!session.factorVerifiedAt) return false;
  return session.verifiedWith !== 'recovery' || now.getTime() - session.factorVerifiedAt.getTime() <= reauthMs(config);
}

/**
 * What an admin's session lacks for role-gated powers (moderator and admin routes, every tenant's posts) under
 * ADMIN_SECOND_FACTOR. A passkey proved with user verification in this session (sign-in or step-up), or an unused
 * recovery code printed on the server, is always enough; a passkey answer without user verification is not. With
 * `passkey-or-recent-code`, an admin who has a passkey must use it; one without may use a code sign-in younger than
 * ADMIN_CODE_FRESH_HOURS (and is asked to add a passkey). With `passkey`, only a passkey proof opens them.
 */
export function secondFactorOf(
  config: Pick<Config, 'ADMIN_SECOND_FACTOR' | 'ADMIN_CODE_FRESH_HOURS' | 'ADMIN_REAUTH_MINUTES'>,
  session: SessionProofs,
  hasPasskey: boolean,
  now: Date,
): SecondFactor {
  const state = ((): SecondFactorState => {
    if (config.ADMIN_SECOND_FACTOR === 'off' || factorProved(config, session, now)) return 'ok';
    if (hasPasskey) return 'verify-passkey';
    if (config.ADMIN_SECOND_FACTOR === 'passkey') return 'add-passkey';
    const fresh = now.getTime() - session.createdAt.getTime() <= config.ADMIN_CODE_FRESH_HOURS * 60 * 60 * 1000;
    return fresh ? 'ok' : 'sign-in-again';
  })();
  return { state, hasPasskey };
}

/** The refusal of a role-gated route to an admin's session without the second factor, saying what to do. */
export class SecondFactorRequiredError extends NotAllowedError {
  override readonly name = 'SecondFactorRequired';
}

export const SECOND_FACTOR_MESSAGES: Record<Exclude<SecondFactorState, 'ok'>, string> = {
  'verify-passkey': 'Admin pages need a sign-in with your passkey: sign in with it to continue',
  'add-passkey': 'Admin pages need a passkey: add one on your profile, then sign in with it',
  'sign-in-again': 'Your sign-in is too old for the admin pages: sign in again, and add a passkey on your profile',
};

/** The refusal of an action that wants a passkey proved within ADMIN_REAUTH_MINUTES: the client asks for the passkey and retries. */
export class ReauthenticationRequiredError extends NotAllowedError {
  override readonly name = 'ReauthenticationRequired';
}

export const REAUTH_MESSAGES = {
  confirm: 'Confirm with your passkey to continue: this change needs a recent passkey check',
  addPasskey: 'This change needs a passkey check: add a passkey on your profile, then confirm with it',
  firstPasskey: (minutes: number) => `Sign in again to add your first passkey: this needs a sign-in from the last ${minutes} minutes`,
};

/** Who asks for a guarded action: the session's proofs, and for a user who really holds Admin their factor (else null). */
export interface FreshFactorCaller {
  verifiedWith: VerifiedWith;
  sessionCreatedAt: Date;
  factorVerifiedAt: Date | null;
  secondFactor: SecondFactor | null;
}

/**
 * Why an action that changes how the account is protected or where its posts flow (passkeys, API tokens, alert
 * channels, organisation saved searches) is refused to the caller, or undefined when it may go ahead. Only users who
 * really hold Admin are asked (and not when ADMIN_SECOND_FACTOR is `off`): they need a passkey proved with user
 * verification within ADMIN_REAUTH_MINUTES, or an unused recovery code. An admin with no passkey may add their first
 * (`firstPasskey`) with a code sign-in younger than the same window.
 */
export function freshFactorRefusal(
  config: Pick<Config, 'ADMIN_SECOND_FACTOR' | 'ADMIN_REAUTH_MINUTES'>,
  caller: FreshFactorCaller,
  now: Date,
  opts: { firstPasskey?: boolean } = {},
): ReauthenticationRequiredError | undefined {
  if (!caller.secondFactor || config.ADMIN_SECOND_FACTOR === 'off') return undefined;
  const within = (at: Date | null) => at !== null && now.getTime() - at.getTime() <= reauthMs(config);
  if (within(caller.factorVerifiedAt)) return undefined;
  const hasPasskey = caller.secondFactor.hasPasskey;
  if (opts.firstPasskey && !hasPasskey) {
    return caller.verifiedWith !== 'token' && within(caller.sessionCreatedAt)
      ? undefined
      : new ReauthenticationRequiredError(REAUTH_MESSAGES.firstPasskey(config.ADMIN_REAUTH_MINUTES));
  }
  return new ReauthenticationRequiredError(hasPasskey ? REAUTH_MESSAGES.confirm : REAUTH_MESSAGES.addPasskey);
}
