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

/** Origins of remotes served from elsewhere (REMOTE_*_URL on a CDN): the shell loads their scripts and manifests. */
export function remoteOrigins(config: Pick<Config, 'REMOTE_DASHBOARD_URL' | 'REMOTE_ADMIN_URL' | 'REMOTE_DIGEST_URL'>): string[] {
  const origins = new Set<string>();
  for (const url of [config.REMOTE_DASHBOARD_URL, config.REMOTE_ADMIN_URL, config.REMOTE_DIGEST_URL]) {
    if (!url || !/^https?:\/\//.test(url)) continue;
    origins.add(new URL(url).origin);
  }
  return [...origins];
}

/**
 * Security headers (helmet) on every answer: a Content-Security-Policy whose scripts are our own origin (plus remote
 * origins) and a per-response nonce — no 'unsafe-inline' for scripts; styles keep it because MUI/emotion inject them
 * at run time —, no framing (frame-ancestors 'none', X-Frame-Options DENY), nosniff, a strict referrer policy, and
 * HSTS when PUBLIC_URL is https.
 */
export function contentSecurityPolicy(config: Config): RequestHandler {
  const remotes = remoteOrigins(config);
  const https = isHttps(config.PUBLIC_URL);
  const nonce = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as unknown as Response).locals.cspNonce}'`;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", nonce, ...remotes],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'https:'],
        'connect-src': ["'self'", ...remotes],
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
