import type { RequestHandler } from 'express';
import { NotAllowedError } from './errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests sent by another origin (CSRF defence on top of SameSite=Lax cookies).
 * A request without Origin (curl, server-to-server) carries no ambient browser credentials worth protecting
 * beyond SameSite, so it is let through; a present Origin must match the request's own host or PUBLIC_URL.
 */
export function originCheck(allowedOrigins: string[]): RequestHandler {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/$/, '')));
  return (req, _res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.get('origin');
    if (!origin || origin === 'null') return origin === 'null' ? next(new NotAllowedError('Cross-origin request refused')) : next();
    const own = `${req.protocol}://${req.get('host')}`;
    if (origin === own || allowed.has(origin)) return next();
    next(new NotAllowedError('Cross-origin request refused'));
  };
}
