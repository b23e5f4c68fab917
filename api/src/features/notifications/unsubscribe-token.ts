import crypto from 'node:crypto';

/**
 * One-click unsubscribe tokens: `<payload>.<signature>`, both base64url. The payload names what the link stops —
 * item subscriptions (one or several: an item mail about three items carries one header link for all three) or a
 * digest subscriber — and the signature is an HMAC-SHA256 over it with the installation secret, so a link works
 * without signing in but cannot be forged or pointed at someone else's subscription. Tokens do not expire: an
 * unsubscribe link in an old mail must keep working (RFC 8058 and the big mailbox providers expect that), and all
 * it can ever do is switch mail off.
 */
export type UnsubscribeTarget = { kind: 'items'; subscriptionIds: number[] } | { kind: 'digest'; subscriberId: number };

const CONTEXT = 'radar-unsubscribe-v1:';

function sign(secret: string, payload: string): string {
  return crypto.createHmac('sha256', secret).update(CONTEXT + payload).digest('base64url');
}

function encodePayload(target: UnsubscribeTarget): string {
  const body = target.kind === 'digest' ? `d:${target.subscriberId}` : `i:${[...new Set(target.subscriptionIds)].sort((a, b) => a - b).join(',')}`;
  return Buffer.from(body, 'utf8').toString('base64url');
}

export function createUnsubscribeToken(secret: string, target: UnsubscribeTarget): string {
  if (target.kind === 'items' && target.subscriptionIds.length === 0) throw new Error('an items token needs at least one subscription id');
  const payload = encodePayload(target);
  return `${payload}.${sign(secret, payload)}`;
}

/** The target of a genuine token, or null for anything malformed or forged. */
export function verifyUnsubscribeToken(secret: string, token: unknown): UnsubscribeTarget | null {
  if (typeof token !== 'string' || token.length > 2000) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [payload, signature] = parts as [string, string];
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const body = Buffer.from(payload, 'base64url').toString('utf8');
  const digest = /^d:(\d{1,10})$/.exec(body);
  if (digest) return { kind: 'digest', subscriberId: Number(digest[1]) };
  const itemsMatch = /^i:(\d{1,10}(?:,\d{1,10})*)$/.exec(body);
  if (itemsMatch) return { kind: 'items', subscriptionIds: (itemsMatch[1] ?? '').split(',').map(Number) };
  return null;
}

/** The link in the mail body (a confirmation page) and the RFC 8058 headers (one-click POST to the same URL). */
export function unsubscribeUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/api/unsubscribe?token=${encodeURIComponent(token)}`;
}

export function listUnsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
