import { ROLE_NAMES } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { RequestAuth } from '../../http/auth.js';
import { hashSessionToken, newSessionToken } from '../../http/auth.js';
import { sessionPolicy } from '../../http/session-policy.js';
import { authRepo } from './auth.repo.js';
import { createTokensRepo } from '../tokens/tokens.repo.js';
import { networkOf } from '../../http/client-address.js';
import { describeUserAgent } from './user-agent.js';
import type { SessionRecord } from '@radar/contracts';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** A session just issued: the token for the cookie and how long the cookie should live. */
export interface IssuedSession {
  token: string;
  maxAgeMs: number;
}

export type SessionsService = ReturnType<typeof createSessionsService>;

/** How a session's sign-in was proven (a renewed or rotated session keeps its sign-in's proof). */
export type SessionProof = 'code' | 'passkey' | 'recovery';
const proofOf = (auth: RequestAuth): SessionProof => (auth.verifiedWith === 'token' ? 'code' : auth.verifiedWith);

/**
 * Session lifecycle: issue at sign-in, rotate on a privilege change of the caller, end one or all. A role change made
 * to a user (assign, unassign, deleting a role they hold) ends all of that user's sessions in the same transaction
 * (the `user_roles` trigger of the migration), so no token issued before the change carries the new privileges;
 * when the caller changed their own roles, `renewIfEnded` gives them a new session in the same response.
 */
export function createSessionsService(deps: Pick<BaseDeps, 'db' | 'clock' | 'config'>) {
  const policy = sessionPolicy(deps.config);

  async function issue(
    tx: DbOrTx,
    opts: {
      userId: number;
      createdAt: Date;
      client: ClientInfo;
      impersonatedRole?: string | null;
      verifiedWith?: SessionProof;
      factorVerifiedAt?: Date | null;
    },
  ): Promise<IssuedSession> {
    const now = deps.clock.now();
    const isAdmin = await authRepo.userHasRole(tx, opts.userId, ROLE_NAMES.admin);
    const expiresAt = policy.expiresAt(opts.createdAt, now, isAdmin);
    const token = newSessionToken();
    await authRepo.createSession(tx, {
      idHash: hashSessionToken(token),
      userId: opts.userId,
      createdAt: opts.createdAt,
      now,
      expiresAt,
      ip: opts.client.ip,
      userAgent: opts.client.userAgent?.slice(0, 500) ?? null,
      impersonatedRole: opts.impersonatedRole ?? null,
      verifiedWith: opts.verifiedWith ?? 'code',
      factorVerifiedAt: opts.factorVerifiedAt ?? null,
    });
    return { token, maxAgeMs: expiresAt.getTime() - now.getTime() };
  }

  return {
    policy,

    /**
     * A new session at sign-in (inside the sign-in transaction), saying how the sign-in was proven and whether it
     * proved the second factor (a passkey with user verification, or a recovery code).
     */
    signIn: (tx: DbOrTx, userId: number, client: ClientInfo, verifiedWith: SessionProof = 'code', factorVerified = false) =>
      issue(tx, { userId, createdAt: deps.clock.now(), client, verifiedWith, factorVerifiedAt: factorVerified ? deps.clock.now() : null }),

    /**
     * After a step-up with a passkey (user verified): the caller's session replaced by a new one (new token, same user,
     * sign-in time and impersonation) that records the passkey proved now. Inside the step-up's transaction.
     */
    async stepUp(tx: DbOrTx, auth: RequestAuth, client: ClientInfo): Promise<IssuedSession> {
      await authRepo.deleteSession(tx, auth.sessionIdHash);
      return issue(tx, {
        userId: auth.user.id,
        createdAt: auth.sessionCreatedAt,
        client,
        impersonatedRole: auth.impersonatedRole,
        verifiedWith: 'passkey',
        factorVerifiedAt: deps.clock.now(),
      });
    },

    /**
     * Replaces the caller's session by a new one (new token; the old one stops working at once) carrying
     * `impersonatedRole`. Used when the caller's effective privileges change (impersonation on or off).
     */
    async rotate(auth: RequestAuth, client: ClientInfo, impersonatedRole: string | null): Promise<IssuedSession> {
      return deps.db.transaction(async (tx) => {
        await authRepo.deleteSession(tx, auth.sessionIdHash);
        return issue(tx, {
          userId: auth.user.id,
          createdAt: auth.sessionCreatedAt,
          client,
          impersonatedRole,
          verifiedWith: proofOf(auth),
          factorVerifiedAt: auth.factorVerifiedAt,
        });
      });
    },

    /** After a role change that affected the caller (their session was ended with all others): a new one, or null. */
    async renewIfEnded(auth: RequestAuth, client: ClientInfo): Promise<IssuedSession | null> {
      if (await authRepo.findSession(deps.db, auth.sessionIdHash)) return null;
      return deps.db.transaction((tx) =>
        issue(tx, { userId: auth.user.id, createdAt: auth.sessionCreatedAt, client, verifiedWith: proofOf(auth), factorVerifiedAt: auth.factorVerifiedAt }),
      );
    },

    /** The user's live sessions as /profile lists them; `currentIdHash` marks the asking one. */
    async list(userId: number, currentIdHash: string): Promise<SessionRecord[]> {
      const rows = await authRepo.sessionsOf(deps.db, userId, deps.clock.now());
      return rows.map((row) => {
        const agent = describeUserAgent(row.userAgent);
        return {
          id: row.idHash.slice(0, 16),
          browser: agent.browser,
          os: agent.os,
          network: networkOf(row.ip),
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          current: row.idHash === currentIdHash,
        };
      });
    },

    /** Ends one of the user's sessions by its listed id; false when the user has none by that id. */
    revoke: (userId: number, id: string) => authRepo.deleteSessionOfUser(deps.db, userId, id),

    /** An admin ends every session of a user (API tokens stay: they are revoked on the user's own profile). */
    endAllOf: (userId: number) => authRepo.deleteSessionsOfUser(deps.db, userId),

    async end(token: string | undefined): Promise<void> {
      if (token) await authRepo.deleteSession(deps.db, hashSessionToken(token));
    },

    /**
     * "Sign out everywhere": every session of the user, this one included, and with `revokeTokens` every personal API
     * token too, in one transaction. Returns how many of each ended.
     */
    endAll: (userId: number, opts: { revokeTokens?: boolean } = {}) =>
      deps.db.transaction(async (tx) => ({
        sessions: await authRepo.deleteSessionsOfUser(tx, userId),
        revokedTokens: opts.revokeTokens ? await createTokensRepo(tx).revokeAllOwn(userId) : 0,
      })),

    /** Cookie lifetime of the current session (session-user renews the cookie with it). */
    maxAgeOf: (auth: RequestAuth) => auth.sessionExpiresAt.getTime() - deps.clock.now().getTime(),
  };
}
