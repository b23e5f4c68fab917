import type { Request, RequestHandler } from 'express';
import { readCookie } from './cookies.js';
import { NotAllowedError } from '../lib/errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests another site could have made a browser send (CSRF defence on top of SameSite=Lax
 * cookies):
 * - `Sec-Fetch-Site` (sent by every current browser, which a page cannot forge): `same-origin` passes; anything else
 *   (`same-site`, `cross-site`, `none`) passes only with an Origin this site allows.
 * - `Origin`, when present, must be the request's own origin or PUBLIC_URL's; the opaque `null` never passes.
 * - A write carrying the session cookie with neither header is refused: a browser always sends one of them, so such
 *   a request is not a page of ours. Without the cookie (an API token in Authorization, curl, another server) there
 *   is no ambient credential another site could borrow, so it passes.
 */
export function originCheck(allowedOrigins: string[], sessionCookieName: string): RequestHandler {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/$/, '')));
  const ownOrAllowed = (req: Request, origin: string) => origin === `${req.protocol}://${req.get('host')}` || allowed.has(origin);
  return (req, _res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.get('origin');
    const site = req.get('sec-fetch-site');
    if (origin === 'null') return next(new NotAllowedError('Cross-origin request refused'));
    if (origin && !ownOrAllowed(req, origin)) return next(new NotAllowedError('Cross-origin request refused'));
    if (site && site !== 'same-origin' && !origin) return next(new NotAllowedError('Cross-origin request refused'));
    if (!origin && !site && readCookie(req, sessionCookieName)) {
      return next(new NotAllowedError('A signed-in write must come from this site: the request has no Origin header'));
    }
    next();
  };
}
