import type { SecondFactorState } from '@radar/contracts';
import type { Config } from '../config.js';
import { NotAllowedError } from '../lib/errors.js';

/** How a session's sign-in was proven: an e-mailed code, a passkey, a recovery code from the CLI, or an API token. */
export type VerifiedWith = 'code' | 'passkey' | 'recovery' | 'token';

export interface SecondFactor {
  state: SecondFactorState;
  hasPasskey: boolean;
}

/**
 * What an admin's session lacks for the admin pages under ADMIN_SECOND_FACTOR. A passkey sign-in (or a recovery code
 * printed on the server) is always enough. With `passkey-or-recent-code`, an admin who has a passkey must use it; one
 * without may use a code sign-in younger than ADMIN_CODE_FRESH_HOURS (and is asked to add a passkey). With `passkey`,
 * only a passkey sign-in opens them.
 */
export function secondFactorOf(
  config: Pick<Config, 'ADMIN_SECOND_FACTOR' | 'ADMIN_CODE_FRESH_HOURS'>,
  session: { verifiedWith: VerifiedWith; createdAt: Date },
  hasPasskey: boolean,
  now: Date,
): SecondFactor {
  const state = ((): SecondFactorState => {
    if (config.ADMIN_SECOND_FACTOR === 'off' || session.verifiedWith === 'passkey' || session.verifiedWith === 'recovery') return 'ok';
    if (hasPasskey) return 'verify-passkey';
    if (config.ADMIN_SECOND_FACTOR === 'passkey') return 'add-passkey';
    const fresh = now.getTime() - session.createdAt.getTime() <= config.ADMIN_CODE_FRESH_HOURS * 60 * 60 * 1000;
    return fresh ? 'ok' : 'sign-in-again';
  })();
  return { state, hasPasskey };
}

/** The refusal of an admin route to a session without the second factor, saying what to do. */
export class SecondFactorRequiredError extends NotAllowedError {
  override readonly name = 'SecondFactorRequired';
}

export const SECOND_FACTOR_MESSAGES: Record<Exclude<SecondFactorState, 'ok'>, string> = {
  'verify-passkey': 'Admin pages need a sign-in with your passkey: sign in with it to continue',
  'add-passkey': 'Admin pages need a passkey: add one on your profile, then sign in with it',
  'sign-in-again': 'Your sign-in is too old for the admin pages: sign in again, and add a passkey on your profile',
};
