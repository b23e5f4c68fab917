import type { IncomingMessage, ServerResponse } from 'node:http';
import crypto from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Config } from '../config.js';
import { isHttps } from './session-policy.js';

/**
 * This response's CSP nonce, made on first use, and allowed in the response's `script-src`: for the few inline scripts
 * we write ourselves (the sign-out page). Responses that write none carry no nonce at all.
 */
export function nonceOf(res: Response): string {
  const made = res.locals.cspNonce as string | undefined;
  if (made) return made;
  const nonce = crypto.randomBytes(16).toString('base64');
  res.locals.cspNonce = nonce;
  addScriptSource(res, `'nonce-${nonce}'`);
  return nonce;
}

/**
 * Security headers (helmet) on every answer: a Content-Security-Policy whose scripts are our own origin (a response
 * that writes an inline script adds its nonce, nonceOf, or its hash, allowInlineScriptHash; the shell page adds the
 * origins of the remotes it loads, allowRemoteOrigins) — no 'unsafe-inline' for scripts; styles keep it because
 * MUI/emotion inject them at run time —, no framing (frame-ancestors 'none', X-Frame-Options DENY), nosniff, a strict
 * referrer policy, and HSTS when PUBLIC_URL is https.
 *
 * The policy is the same for every response, so helmet runs once, at start-up (securityHeaderList), and its headers
 * are copied onto each response; the list lane copies the same list.
 */
export function securityHeaders(headers: SecurityHeaders): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** The security headers of every answer, as [name, value] pairs: helmet's, run once against a recorder. */
export type SecurityHeaders = readonly (readonly [string, string])[];

export function securityHeaderList(config: Config): SecurityHeaders {
  return headersSetBy(helmetFor(config));
}

/** helmet with the product's policy. */
function helmetFor(config: Config) {
  const https = isHttps(config.PUBLIC_URL);
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
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
  });
}

/** The headers a middleware that depends on nothing in the request sets, by running it once against a recorder. */
function headersSetBy(middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  } as unknown as ServerResponse;
  let failed: unknown;
  middleware({ headers: {}, method: 'GET', url: '/' } as IncomingMessage, recorder, (err) => (failed = err));
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  if (!headers.has('Content-Security-Policy')) throw new Error('helmet set no Content-Security-Policy');
  return [...headers];
}

/** Adds `source` to this response's script-src. */
function addScriptSource(res: Response, source: string): void {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy !== 'string') return;
  res.setHeader('Content-Security-Policy', policy.replace(/(^|;)(\s*script-src)(?=\s)([^;]*)/, `$1$2$3 ${source}`));
}

/**
 * Allows one inline script in this response by its SHA-256 instead of the nonce: for a page that must be the same
 * bytes on every response so it can be revalidated (ETag → 304). A nonce changes the page each time, and a cached
 * page revalidated under a new nonce would have its script blocked.
 */
export function allowInlineScriptHash(res: Response, sha256Base64: string): void {
  addScriptSource(res, `'sha256-${sha256Base64}'`);
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
