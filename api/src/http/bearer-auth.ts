import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { API_TOKEN_PREFIX, ROLE_NAMES, type ApiTokenScope, type Endpoint } from '@radar/contracts';
import { networkOf } from './client-address.js';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { hashSessionToken, toAuthUser } from './auth.js';
import { loadRolesOf, tokenOf, touchToken } from './auth.repo.js';
import { AuthenticationError, NotAllowedError } from '../lib/errors.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set when the request authenticated with a personal API token (`Authorization: Bearer rdr_…`). */
      apiToken?: { id: number; scope: ApiTokenScope };
    }
  }
}

/** Roles a token never carries: a token of an admin or moderator acts as a plain signed-in user. */
const STAFF_ROLES = new Set<string>([ROLE_NAMES.admin, ROLE_NAMES.moderator]);
/** Last-used time is written at most this often per token (not on every request). */
const LAST_USED_GRANULARITY_MS = 60_000;

function invalidToken(res: Response, message: string): AuthenticationError {
  res.setHeader('WWW-Authenticate', `Bearer realm="M365 Radar", error="invalid_token", error_description="${message}"`);
  return new AuthenticationError(message);
}

/**
 * Resolves `Authorization: Bearer <token>` to `req.auth` (the token's owner without staff roles) and `req.apiToken`.
 * Runs after the cookie session middleware and wins over it, so a request carrying a token never has more rights
 * than the token. A malformed, unknown or revoked token is a 401 on every route (with RFC 6750's
 * WWW-Authenticate), never a silent fall back to a guest. Which endpoints accept tokens is declared in the endpoint
 * table (`tokenAccess`) and enforced by {@link tokenAccessCheck}.
 */
export function bearerTokenMiddleware(deps: { db: Db; clock: Clock }): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    if (!header) return next();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return next(invalidToken(res, 'The Authorization header must be "Bearer <API token>"'));
    const token = match[1] ?? '';
    if (!token.startsWith(API_TOKEN_PREFIX)) return next(invalidToken(res, 'This is not an M365 Radar API token'));
    try {
      const row = await tokenOf(deps.db, hashSessionToken(token));
      if (!row) return next(invalidToken(res, 'The API token is not valid or was revoked'));
      const now = deps.clock.now();
      if (row.expiresAt.getTime() <= now.getTime()) {
        return next(invalidToken(res, `The API token expired on ${row.expiresAt.toISOString().slice(0, 10)}: create a new one on your profile`));
      }
      const network = networkOf(req.ip);
      if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS || row.lastUsedNetwork !== network) {
        await touchToken(deps.db, row.tokenId, now, network);
      }
      const roles = (await loadRolesOf(deps.db, row.user.id)).filter((r) => !STAFF_ROLES.has(r.name));
      req.auth = {
        user: toAuthUser(row.user),
        realRoles: roles,
        roles,
        impersonatedRole: null,
        // No session: the endpoints that use these (sign-out, impersonation, session renewal) do not accept tokens.
        sessionIdHash: '',
        sessionCreatedAt: row.createdAt,
        sessionExpiresAt: now,
        verifiedWith: 'token',
        factorVerifiedAt: null,
        // Tokens never carry staff roles, so never reach the admin routes.
        secondFactor: null,
      };
      req.apiToken = { id: row.tokenId, scope: row.scope === 'read_subscriptions' ? 'read_subscriptions' : 'read' };
      next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * Refuses a token on an endpoint whose row does not declare `tokenAccess`, and a `read` token on one that manages
 * subscriptions (`tokenAccess: 'manage'`); checked before its role.
 */
export function tokenAccessCheck(endpoint: Endpoint): RequestHandler {
  return (req, _res, next) => {
    if (req.apiToken && !endpoint.tokenAccess) {
      return next(new NotAllowedError('API tokens are accepted only on read endpoints and your own subscriptions; sign in for this'));
    }
    if (req.apiToken && endpoint.tokenAccess === 'manage' && req.apiToken.scope !== 'read_subscriptions') {
      return next(new NotAllowedError('This API token may only read: create one that may also manage your subscriptions'));
    }
    next();
  };
}
