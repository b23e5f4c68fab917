import { describe, expect, it } from '@jest/globals';
import { createUnsubscribeToken, listUnsubscribeHeaders, unsubscribeUrl, verifyUnsubscribeToken } from './unsubscribe-token.js';

const SECRET = 'unit-test-secret-unit-test-secret-0123456789';

describe('unsubscribe tokens', () => {
  it('round-trips item and digest targets', () => {
    expect(verifyUnsubscribeToken(SECRET, createUnsubscribeToken(SECRET, { kind: 'items', subscriptionIds: [7, 3, 7] }))).toEqual({
      kind: 'items',
      subscriptionIds: [3, 7],
    });
    expect(verifyUnsubscribeToken(SECRET, createUnsubscribeToken(SECRET, { kind: 'digest', subscriberId: 42 }))).toEqual({ kind: 'digest', subscriberId: 42 });
  });

  it('refuses forged, altered and malformed tokens', () => {
    const token = createUnsubscribeToken(SECRET, { kind: 'digest', subscriberId: 42 });
    const [payload, signature] = token.split('.') as [string, string];
    const otherPayload = Buffer.from('d:43').toString('base64url');
    expect(verifyUnsubscribeToken('x'.repeat(40), token)).toBeNull();
    expect(verifyUnsubscribeToken(SECRET, `${otherPayload}.${signature}`)).toBeNull();
    expect(verifyUnsubscribeToken(SECRET, `${payload}.${signature.slice(0, -1)}A`)).toBeNull();
    for (const bad of ['', 'abc', `${payload}`, `${payload}.${signature}.x`, undefined, 42, 'a'.repeat(3000)]) {
      expect(verifyUnsubscribeToken(SECRET, bad)).toBeNull();
    }
  });

  it('builds the link and the RFC 8058 headers', () => {
    const url = unsubscribeUrl('https://radar.example/', 'p.s');
    expect(url).toBe('https://radar.example/api/unsubscribe?token=p.s');
    expect(listUnsubscribeHeaders(url)).toEqual({
      'List-Unsubscribe': '<https://radar.example/api/unsubscribe?token=p.s>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
