import crypto from 'node:crypto';

/**
 * Tokens for links in mails: `<payload>.<signature>`, both base64url, the signature an HMAC-SHA256 with the
 * installation secret over a per-use context and the payload (so a token of one kind is never valid as another).
 * Verified in constant time.
 */
function sign(secret: string, context: string, payload: string): string {
  return crypto
    .createHmac('sha256', secret)
    .update(context + payload)
    .digest('base64url');
}

export function createSignedToken(secret: string, context: string, body: string): string {
  const payload = Buffer.from(body, 'utf8').toString('base64url');
  return `${payload}.${sign(secret, context, payload)}`;
}

/** The body of a genuine token of this context, or null for anything malformed or forged. */
export function readSignedToken(secret: string, context: string, token: unknown): string | null {
  if (typeof token !== 'string' || token.length > 2000) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [payload, signature] = parts as [string, string];
  const expected = Buffer.from(sign(secret, context, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  return Buffer.from(payload, 'base64url').toString('utf8');
}
