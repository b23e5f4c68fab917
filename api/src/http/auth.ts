import type { NextFunction, Request, RequestHandler, Response } from 'express';
import crypto from 'node:crypto';
import { secondFactorOf, type SecondFactor, type SecondFactorConfig, type VerifiedWith } from './second-factor.js';
import { ROLE_NAMES } from '@radar/contracts';
import type { Db } from '../db/client.js';
import { deleteSession, liveSessionOf, loadRolesOf, roleNamed, slideSession, hasPasskey } from './auth.repo.js';
import type { Clock } from '../lib/clock.js';
import { readCookie } from './cookies.js';
import type { SessionPolicy } from './session-policy.js';

export { SESSION_COOKIE } from './session-policy.js';

export interface AuthUser {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  lastLoginAt: Date | null;
  emailVerifiedAt: Date | null;
}

/** The user part of `req.auth`, from a users row (sessions and API tokens alike). */
export function toAuthUser(u: AuthUser): AuthUser {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    profileImageUrl: u.profileImageUrl,
    lastLoginAt: u.lastLoginAt,
    emailVerifiedAt: u.emailVerifiedAt,
  };
}

export interface RequestAuth {
  user: AuthUser;
  /** Roles from the database. */
  realRoles: { id: number; name: string }[];
  /** What the server enforces: the impersonated role while impersonating, else the real roles. */
  roles: { id: number; name: string }[];
  impersonatedRole: string | null;
  sessionIdHash: string;
  /** When the user signed in (the absolute lifetime counts from here; a rotated session keeps it). */
  sessionCreatedAt: Date;
  /** When the session expires unless used again (after this request's refresh). */
  sessionExpiresAt: Date;
  /** How the sign-in was proven. */
  verifiedWith: VerifiedWith;
  /** When a passkey with user verification was last proved in this session, or a recovery code entered (null: neither). */
  factorVerifiedAt: Date | null;
  /** For those who really hold Admin: whether this session may use the admin routes (ADMIN_SECOND_FACTOR); else null. */
  secondFactor: SecondFactor | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by sessionMiddleware: the signed-in user and roles, or null for guests. */
      auth?: RequestAuth | null;
    }
  }
}

export function hashSessionToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export function newSessionToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/**
 * Resolves the session cookie to `req.auth` (or null). A session is refused past its `expires_at` (the earlier of the
 * idle timeout and the absolute lifetime), past the absolute lifetime counted from sign-in, and — for a user who really
 * holds Admin — after ADMIN_SESSION_IDLE_HOURS without use; a refused session is deleted. Sliding expiry: a session
 * used a while after its last refresh (at most an hour) gets a new expiry, one write per interval, not per request.
 */
export function sessionMiddleware(deps: {
  db: Db;
  clock: Clock;
  policy: SessionPolicy;
  cookieName: string;
  impersonationEnabled: boolean;
  secondFactor: SecondFactorConfig;
}): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    req.auth = null;
    const token = readCookie(req, deps.cookieName);
    if (!token) return next();
    try {
      const now = deps.clock.now();
      const idHash = hashSessionToken(token);
      const row = await liveSessionOf(deps.db, idHash, now);
      if (!row) return next();
      const realRoles = await loadRolesOf(deps.db, row.user.id);
      const isRealAdmin = realRoles.some((r) => r.name === ROLE_NAMES.admin);
      const { session } = row;
      const idle = now.getTime() - session.lastSeenAt.getTime();
      if (now.getTime() >= session.createdAt.getTime() + deps.policy.absoluteMs || idle > deps.policy.idleMs(isRealAdmin)) {
        await deleteSession(deps.db, idHash);
        return next();
      }
      let expiresAt = session.expiresAt;
      if (idle > deps.policy.slideAfterMs(isRealAdmin)) {
        expiresAt = deps.policy.expiresAt(session.createdAt, now, isRealAdmin);
        await slideSession(deps.db, idHash, now, expiresAt);
      }
      // Impersonation is an admin's tool: it applies only while the user really holds Admin, so a role change made
      // any other way can never leave a lesser user with an impersonated (possibly higher) role.
      const impersonatedRole = deps.impersonationEnabled && isRealAdmin ? session.impersonatedRole : null;
      let effective = realRoles;
      if (impersonatedRole) {
        const r = await roleNamed(deps.db, impersonatedRole);
        effective = r ? [r] : [];
      }
      req.auth = {
        user: toAuthUser(row.user),
        realRoles,
        roles: effective,
        impersonatedRole,
        sessionIdHash: idHash,
        sessionCreatedAt: session.createdAt,
        sessionExpiresAt: expiresAt,
        verifiedWith: session.verifiedWith as VerifiedWith,
        factorVerifiedAt: session.factorVerifiedAt,
        // Only admins pay for the passkey lookup.
        secondFactor: isRealAdmin
          ? secondFactorOf(
              deps.secondFactor,
              { verifiedWith: session.verifiedWith as VerifiedWith, createdAt: session.createdAt, factorVerifiedAt: session.factorVerifiedAt },
              await hasPasskey(deps.db, row.user.id),
              now,
            )
          : null,
      };
      next();
    } catch (err) {
      next(err);
    }
  };
}

export function hasRole(auth: RequestAuth | null | undefined, ...names: string[]): boolean {
  return Boolean(auth?.roles.some((r) => names.includes(r.name)));
}

export function isModeratorOrAdmin(auth: RequestAuth | null | undefined): boolean {
  return hasRole(auth, ROLE_NAMES.admin, ROLE_NAMES.moderator);
}
