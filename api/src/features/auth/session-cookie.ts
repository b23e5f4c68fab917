import type { CookieOptions, Request, Response } from 'express';
import { readCookie } from '../../http/cookies.js';
import { isHttps, sessionCookieName } from '../../http/session-policy.js';

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Path=/; over https also Secure and the
 * `__Host-` name prefix, which browsers accept only with Secure, Path=/ and no Domain.
 */
function options(publicUrl: string): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: isHttps(publicUrl) };
}

export function setSessionCookie(res: Response, publicUrl: string, token: string, maxAgeMs: number): void {
  res.cookie(sessionCookieName(publicUrl), token, { ...options(publicUrl), maxAge: Math.max(0, maxAgeMs) });
}

export function clearSessionCookie(res: Response, publicUrl: string): void {
  res.clearCookie(sessionCookieName(publicUrl), options(publicUrl));
}

export function readSessionCookie(req: Request, publicUrl: string): string | undefined {
  return readCookie(req, sessionCookieName(publicUrl));
}
