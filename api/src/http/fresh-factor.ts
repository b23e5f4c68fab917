import type { RequestHandler } from 'express';
import type { DbOrTx } from '../db/client.js';
import type { BaseDeps } from '../deps.js';
import type { RequestAuth } from './auth.js';
import { consumeRecoveryFactor } from './auth.repo.js';
import { freshFactorRefusal, REAUTH_MESSAGES, ReauthenticationRequiredError } from './second-factor.js';

export interface FreshFactorOptions {
  /** Adding a passkey: an admin who has none may use a code sign-in younger than ADMIN_REAUTH_MINUTES. */
  firstPasskey?: boolean;
  /**
   * Whether passing uses up a recovery code's proof (default true). False for a step that changes nothing (the
   * registration options); the step that does (adding the passkey) uses it up in its own transaction.
   */
  consume?: boolean;
}

/**
 * The guard of actions that change how an account is protected or where its posts flow: for a user who really holds
 * Admin, a passkey proved with user verification within ADMIN_REAUTH_MINUTES (see `freshFactorRefusal`), else a 403
 * `ReauthenticationRequired` the client answers with a passkey step-up and a retry. A recovery code's proof passes
 * once: the first guarded action uses it up.
 */
export function freshFactorGuard(deps: Pick<BaseDeps, 'db' | 'clock' | 'config'>) {
  /** Throws ReauthenticationRequired unless the caller may go ahead; `tx` uses up a recovery proof inside the action's transaction. */
  async function require(auth: RequestAuth, opts: FreshFactorOptions & { tx?: DbOrTx } = {}): Promise<void> {
    const refusal = freshFactorRefusal(deps.config, auth, deps.clock.now(), opts);
    if (refusal) throw refusal;
    if (opts.consume === false || !auth.secondFactor || deps.config.ADMIN_SECOND_FACTOR === 'off') return;
    if (auth.verifiedWith !== 'recovery' || !auth.factorVerifiedAt) return;
    // Two requests racing on one recovery proof: only one finds it.
    if (!(await consumeRecoveryFactor(opts.tx ?? deps.db, auth.sessionIdHash))) throw new ReauthenticationRequiredError(REAUTH_MESSAGES.confirm);
  }

  return {
    require,
    /** The same as route middleware (after the access check, before the body is read). */
    middleware(opts: FreshFactorOptions = {}): RequestHandler {
      return (req, _res, next) => {
        if (!req.auth) return next();
        require(req.auth, opts).then(() => next(), next);
      };
    },
  };
}
export type FreshFactorGuard = ReturnType<typeof freshFactorGuard>;
