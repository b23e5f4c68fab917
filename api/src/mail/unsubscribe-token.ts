import { TRIAGE_MAIL_KINDS, type TriageMailKind } from '@radar/contracts';
import { createSignedToken, readSignedToken } from '../lib/signed-token.js';

/**
 * One-click unsubscribe tokens: `<payload>.<signature>`, both base64url. The payload names what the link stops —
 * item subscriptions (one or several: an item mail about three items carries one header link for all three) or a
 * digest subscriber — and the signature is an HMAC-SHA256 over it with the installation secret, so a link works
 * without signing in but cannot be forged or pointed at someone else's subscription. Tokens do not expire: an
 * unsubscribe link in an old mail must keep working (RFC 8058 and the big mailbox providers expect that), and all
 * it can ever do is switch mail off.
 */
export type UnsubscribeTarget =
  | { kind: 'items'; subscriptionIds: number[] }
  | { kind: 'digest'; subscriberId: number }
  /** Saved-search alert mail: stops e-mail (this channel) for those saved searches; other channels keep alerting. */
  | { kind: 'savedSearches'; channelId: number; savedSearchIds: number[] }
  /** Triage mail: stops these kinds of it (given to you, mentions, due soon, overdue) for the user. */
  | { kind: 'triage'; userId: number; mailKinds: TriageMailKind[] };

const CONTEXT = 'radar-unsubscribe-v1:';

export function createUnsubscribeToken(secret: string, target: UnsubscribeTarget): string {
  if (target.kind === 'items' && target.subscriptionIds.length === 0) throw new Error('an items token needs at least one subscription id');
  if (target.kind === 'savedSearches' && target.savedSearchIds.length === 0) throw new Error('a saved-search token needs at least one saved search id');
  const ids = (list: number[]) => [...new Set(list)].sort((a, b) => a - b).join(',');
  if (target.kind === 'triage') {
    if (target.mailKinds.length === 0) throw new Error('a triage token needs at least one mail kind');
    return createSignedToken(secret, CONTEXT, `t:${target.userId}:${[...new Set(target.mailKinds)].sort().join(',')}`);
  }
  const body =
    target.kind === 'digest'
      ? `d:${target.subscriberId}`
      : target.kind === 'items'
        ? `i:${ids(target.subscriptionIds)}`
        : `s:${target.channelId}:${ids(target.savedSearchIds)}`;
  return createSignedToken(secret, CONTEXT, body);
}

/** The target of a genuine token, or null for anything malformed or forged. */
export function verifyUnsubscribeToken(secret: string, token: unknown): UnsubscribeTarget | null {
  const body = readSignedToken(secret, CONTEXT, token);
  if (body === null) return null;
  const digest = /^d:(\d{1,10})$/.exec(body);
  if (digest) return { kind: 'digest', subscriberId: Number(digest[1]) };
  const itemsMatch = /^i:(\d{1,10}(?:,\d{1,10})*)$/.exec(body);
  if (itemsMatch) return { kind: 'items', subscriptionIds: (itemsMatch[1] ?? '').split(',').map(Number) };
  const searches = /^s:(\d{1,10}):(\d{1,10}(?:,\d{1,10})*)$/.exec(body);
  if (searches) return { kind: 'savedSearches', channelId: Number(searches[1]), savedSearchIds: (searches[2] ?? '').split(',').map(Number) };
  const triage = /^t:(\d{1,10}):([a-z_]+(?:,[a-z_]+)*)$/.exec(body);
  if (triage) {
    const kinds = (triage[2] ?? '').split(',');
    if (!kinds.every((k): k is TriageMailKind => (TRIAGE_MAIL_KINDS as readonly string[]).includes(k))) return null;
    return { kind: 'triage', userId: Number(triage[1]), mailKinds: kinds };
  }
  return null;
}

/** The link in the mail body (a confirmation page) and the RFC 8058 headers (one-click POST to the same URL). */
export function unsubscribeUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/api/unsubscribe?token=${encodeURIComponent(token)}`;
}

export function listUnsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
