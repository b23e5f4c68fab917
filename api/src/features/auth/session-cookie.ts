import type { CookieOptions, Response } from 'express';
import { SESSION_COOKIE } from '../../http/auth.js';

/** HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Secure when served over https. */
function options(publicUrl: string): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: publicUrl.startsWith('https:') };
}

export function setSessionCookie(res: Response, publicUrl: string, token: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, token, { ...options(publicUrl), maxAge: maxAgeMs });
}

export function clearSessionCookie(res: Response, publicUrl: string): void {
  res.clearCookie(SESSION_COOKIE, options(publicUrl));
}
