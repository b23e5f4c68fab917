import type { IncomingMessage, ServerResponse } from 'node:http';
import crypto from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Config } from '../config.js';
import { isHttps } from './session-policy.js';

/** A fresh CSP nonce per response (res.locals.cspNonce) for the few inline scripts we write ourselves. */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString('base64');
  next();
};

export function nonceOf(res: Response): string {
  return String(res.locals.cspNonce ?? '');
}

/**
 * Security headers (helmet) on every answer: a Content-Security-Policy whose scripts are our own origin and a
 * per-response nonce (the shell page adds the origins of the remotes it loads: allowRemoteOrigins) — no 'unsafe-inline' for scripts; styles keep it because MUI/emotion inject them
 * at run time —, no framing (frame-ancestors 'none', X-Frame-Options DENY), nosniff, a strict referrer policy, and
 * HSTS when PUBLIC_URL is https.
 */
export function contentSecurityPolicy(config: Config): RequestHandler {
  const https = isHttps(config.PUBLIC_URL);
  const nonce = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as unknown as Response).locals.cspNonce}'`;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", nonce],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'https:'],
        'connect-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'upgrade-insecure-requests': https ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  }) as RequestHandler;
}

/**
 * Allows one inline script in this response by its SHA-256 instead of the nonce: for a page that must be the same
 * bytes on every response so it can be revalidated (ETag → 304). A nonce changes the page each time, and a cached
 * page revalidated under a new nonce would have its script blocked.
 */
export function allowInlineScriptHash(res: Response, sha256Base64: string): void {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy !== 'string') return;
  res.setHeader('Content-Security-Policy', policy.replace(/(^|;)(\s*script-src)(?=\s)([^;]*)/, `$1$2$3 'sha256-${sha256Base64}'`));
}

/**
 * Lets the shell page fetch the manifests of remotes served from other origins (connect-src) and run their scripts
 * (script-src): exactly the origins the remote registry names for this response, nothing broader.
 */
export function allowRemoteOrigins(res: Response, origins: readonly string[]): void {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy !== 'string' || origins.length === 0) return;
  const extra = ` ${origins.join(' ')}`;
  res.setHeader('Content-Security-Policy', policy.replace(/(^|;)(\s*(?:script-src|connect-src))(?=\s)([^;]*)/g, `$1$2$3${extra}`));
}
