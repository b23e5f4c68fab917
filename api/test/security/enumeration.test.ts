import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import request from 'supertest';
import type { TestContext } from '../context.js';
import { confirmDigestByMail } from '../digest-helpers.js';
import { latestCodeFromOutbox } from '../auth-helpers.js';
import { securityContext } from './harness.js';

/**
 * ASVS V2.2.1 / V3 (no account enumeration): the answers for an existing account, a sign-up still waiting for its
 * code and an unknown address are the same — status, body and headers (apart from per-response values) — for
 * signing up, asking for a code and trying a wrong code; and the same holds for the digest signup.
 */
let t: TestContext;
let ip = 0;
const post = (path: string, body: object) => request(t.app).post(path).set('X-Forwarded-For', `10.9.0.${++ip}`).send(body);

/** A code that is certainly not the address's live one (its HMAC differs from the stored one). */
async function wrongCodeFor(email: string): Promise<string> {
  const { rows } = await t.database.pool.query(`SELECT code_hash FROM sign_in_codes WHERE email = $1 AND consumed_at IS NULL ORDER BY id DESC LIMIT 1`, [
    email,
  ]);
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (crypto.createHmac('sha256', t.ctx.secret).update(`${email}:${code}`).digest('hex') !== rows[0]?.code_hash) return code;
  }
}

const VOLATILE_HEADERS = new Set(['date', 'x-request-id', 'content-security-policy', 'etag', 'ratelimit', 'ratelimit-policy']);

/** What the caller can observe of an answer, without the values that differ per response. */
function observable(res: request.Response) {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VOLATILE_HEADERS.has(name)));
  return { status: res.status, body: res.body, headers };
}

beforeAll(async () => {
  t = await securityContext({ TRUST_PROXY: '1' });
  await post('/api/auth/signup', { email: 'known@example.com', firstName: 'K', lastName: 'N' });
  await post('/api/auth/verify-code', { email: 'known@example.com', code: await latestCodeFromOutbox(t, 'known@example.com') });
  await post('/api/auth/signup', { email: 'pending@example.com', firstName: 'P', lastName: 'S' });
});
afterAll(async () => {
  await t.close();
});

const ADDRESSES = ['known@example.com', 'pending@example.com', 'unknown@example.com'];

describe('sign-in answers do not tell whether an account exists', () => {
  it('POST /api/auth/signup', async () => {
    const answers = [];
    for (const email of ADDRESSES) answers.push(observable(await post('/api/auth/signup', { email, firstName: 'X', lastName: 'Y' })));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('POST /api/auth/send-code', async () => {
    const answers = [];
    for (const email of [...ADDRESSES, 'never-seen@example.com']) answers.push(observable(await post('/api/auth/send-code', { email })));
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  });

  it('POST /api/auth/verify-code with a wrong code, after a code was asked for', async () => {
    const answers = [];
    for (const email of [...ADDRESSES, 'never-seen@example.com']) {
      answers.push(observable(await post('/api/auth/verify-code', { email, code: await wrongCodeFor(email) })));
    }
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(401);
  });
});

describe('the digest signup answers the same for every address', () => {
  it('new, waiting for confirmation, subscribed, and unsubscribed', async () => {
    await post('/api/weekly-digest/signup', { email: 'subscribed@example.com', firstName: 'S', lastName: 'B' });
    await confirmDigestByMail(t, 'subscribed@example.com');
    await post('/api/weekly-digest/signup', { email: 'waiting@example.com', firstName: 'W', lastName: 'T' });
    await post('/api/weekly-digest/signup', { email: 'left@example.com', firstName: 'L', lastName: 'F' });
    await confirmDigestByMail(t, 'left@example.com');
    await t.database.pool.query(`UPDATE digest_subscribers SET is_active = false, unsubscribed_at = now() WHERE email = 'left@example.com'`);
    const answers = [];
    for (const email of ['fresh@example.com', 'waiting@example.com', 'subscribed@example.com', 'left@example.com']) {
      answers.push(observable(await post('/api/weekly-digest/signup', { email, firstName: 'Any', lastName: 'One' })));
    }
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  });
});
