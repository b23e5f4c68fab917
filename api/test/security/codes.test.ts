import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { AUTH_MESSAGES } from '../../src/features/auth/auth.service.js';
import type { TestContext } from '../context.js';
import { latestCodeFromOutbox } from '../auth-helpers.js';
import { securityContext } from './harness.js';

/**
 * ASVS V2.2 / V2.7 / V2.8 (out-of-band codes and anti-automation): expiry, single use, a newer code supersedes
 * older ones, 5 tries per code, at most SIGN_IN_WRONG_CODES_PER_ACCOUNT wrong codes per account per hour (then a
 * cool-down with a clear message, after which the owner signs in), per-address limits that count an IPv6 /64 as one
 * address, and X-Forwarded-For ignored unless TRUST_PROXY says to trust it.
 */
const MINUTE = 60_000;
let t: TestContext;
let ipCounter = 0;
/** A fresh client address per call (TRUST_PROXY is on in this context), so per-address limits stay out of the way. */
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const post = (app: TestContext['app'], path: string, body: object, ip = freshIp()) => request(app).post(path).set('X-Forwarded-For', ip).send(body);
const wrongFor = (code: string, n = 0) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  t = await securityContext({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await t.close();
});

async function freshCode(email: string): Promise<string> {
  expect((await post(t.app, '/api/auth/send-code', { email })).status).toBe(200);
  return latestCodeFromOutbox(t, email);
}
async function account(email: string): Promise<void> {
  await post(t.app, '/api/auth/signup', { email, firstName: 'A', lastName: 'B' });
  expect((await post(t.app, '/api/auth/verify-code', { email, code: await latestCodeFromOutbox(t, email) })).status).toBe(200);
}
const verify = (email: string, code: string, ip?: string) => post(t.app, '/api/auth/verify-code', { email, code }, ip);

describe('one code', () => {
  it('works until it expires (SIGN_IN_CODE_TTL_MINUTES) and not after', async () => {
    await account('expiry@example.com');
    let code = await freshCode('expiry@example.com');
    t.clock.advance(10 * MINUTE - 1);
    expect((await verify('expiry@example.com', code)).status).toBe(200);
    code = await freshCode('expiry@example.com');
    t.clock.advance(10 * MINUTE);
    const late = await verify('expiry@example.com', code);
    expect(late.status).toBe(401);
    expect(late.body.error.message).toBe(AUTH_MESSAGES.expiredCode);
  });

  it('is single-use', async () => {
    await account('reuse@example.com');
    const code = await freshCode('reuse@example.com');
    expect((await verify('reuse@example.com', code)).status).toBe(200);
    const again = await verify('reuse@example.com', code);
    expect(again.status).toBe(401);
    expect(again.body.error.message).toBe(AUTH_MESSAGES.noCode);
  });

  it('is superseded by a newer code', async () => {
    await account('supersede@example.com');
    const older = await freshCode('supersede@example.com');
    let newer = await freshCode('supersede@example.com');
    while (newer === older) newer = await freshCode('supersede@example.com');
    expect((await verify('supersede@example.com', older)).status).toBe(401);
    expect((await verify('supersede@example.com', newer)).status).toBe(200);
  });

  it('burns at the 5th wrong try: then even the right code is refused, and a new code works', async () => {
    await account('five@example.com');
    const code = await freshCode('five@example.com');
    const statuses = [];
    for (let n = 0; n < 5; n++) statuses.push((await verify('five@example.com', wrongFor(code, n))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const right = await verify('five@example.com', code);
    expect([right.status, right.body.error.message]).toEqual([429, AUTH_MESSAGES.tooManyAttempts]);
    expect((await verify('five@example.com', await freshCode('five@example.com'))).status).toBe(200);
  });
});

describe('the account cap: 10 wrong codes per account per hour, across codes and client addresses', () => {
  it('pauses sign-in with a clear message, and the owner signs in after the window', async () => {
    const email = 'capped@example.com';
    await account(email);
    t.clock.advance(MINUTE);
    // Two codes, five wrong tries each, every try from another address: 10 wrong codes for this account.
    for (let c = 0; c < 2; c++) {
      const code = await freshCode(email);
      for (let n = 0; n < 5; n++) await verify(email, wrongFor(code, n));
    }
    const code = await freshCode(email);
    const paused = await verify(email, code);
    expect(paused.status).toBe(429);
    expect(paused.body.error).toEqual({ name: 'RateLimitError', message: AUTH_MESSAGES.accountCoolDown(60) });
    expect(paused.body.error.message).toBe(
      'Too many wrong codes for this email. For your security, sign-in is paused for 60 minutes; then request a new code.',
    );
    t.clock.advance(45 * MINUTE);
    expect((await verify(email, await freshCode(email))).body.error.message).toBe(AUTH_MESSAGES.accountCoolDown(15));
    // After the hour: the real owner requests a code and signs in.
    t.clock.advance(15 * MINUTE);
    expect((await verify(email, await freshCode(email))).status).toBe(200);
  });

  it('does not count failures of other accounts, or verifications without a live code', async () => {
    const email = 'uncapped@example.com';
    await account(email);
    for (let n = 0; n < 12; n++) await verify(email, '123456'); // no live code: not a guess at this account's code
    expect((await verify(email, await freshCode(email))).status).toBe(200);
  });
});

describe('per-address limits', () => {
  let small: TestContext;
  beforeAll(async () => {
    small = await securityContext({ TRUST_PROXY: '1', SIGN_IN_SENDS_PER_IP: '3', SIGN_IN_VERIFY_FAILURES_PER_IP: '4' });
  });
  afterAll(async () => {
    await small.close();
  });
  const rows = async (ctx: TestContext) =>
    Number((await ctx.database.pool.query(`SELECT (SELECT count(*) FROM mail_outbox) + (SELECT count(*) FROM sign_in_codes) AS n`)).rows[0].n);

  it('counts an IPv6 /64 as one address for code requests; another /64 is another address', async () => {
    for (const [n, ip] of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff'].entries()) {
      expect((await post(small.app, '/api/auth/send-code', { email: `v6-${n}@example.com` }, ip)).status).toBe(200);
    }
    const before = await rows(small);
    const limited = await post(small.app, '/api/auth/send-code', { email: 'v6-4@example.com' }, '2001:0db8:0001:0002::9');
    expect([limited.status, limited.body.error.message]).toEqual([429, AUTH_MESSAGES.tooManyFromAddress(15)]);
    // Refused before anything is rendered or stored.
    expect(await rows(small)).toBe(before);
    expect((await post(small.app, '/api/auth/send-code', { email: 'v6-5@example.com' }, '2001:db8:1:3::1')).status).toBe(200);
    const { rows: keys } = await small.database.pool.query(`SELECT DISTINCT request_ip FROM sign_in_codes WHERE email LIKE 'v6-%'`);
    expect(keys.map((k) => k.request_ip).sort()).toEqual(['2001:db8:1:2::/64', '2001:db8:1:3::/64']);
  });

  it('throttles failed verifications per address (an IPv6 /64 as one), whatever the e-mail', async () => {
    for (let n = 0; n < 4; n++)
      expect((await post(small.app, '/api/auth/verify-code', { email: `probe${n}@example.com`, code: '123456' }, `2001:db8:9:9::${n + 1}`)).status).toBe(401);
    const throttled = await post(small.app, '/api/auth/verify-code', { email: 'probe9@example.com', code: '123456' }, '2001:db8:9:9::abcd');
    expect([throttled.status, throttled.body.error.message]).toEqual([429, AUTH_MESSAGES.tooManyVerifyFromAddress(15)]);
    expect((await post(small.app, '/api/auth/verify-code', { email: 'probe9@example.com', code: '123456' }, '2001:db8:9:a::1')).status).toBe(401);
    small.clock.advance(15 * MINUTE);
    expect((await post(small.app, '/api/auth/verify-code', { email: 'probe9@example.com', code: '123456' }, '2001:db8:9:9::1')).status).toBe(401);
  });
});

describe('per-e-mail limit', () => {
  it('limits codes per e-mail (SIGN_IN_SENDS_PER_EMAIL) and lets the window pass', async () => {
    const email = 'eager@example.com';
    for (let i = 0; i < 5; i++) expect((await post(t.app, '/api/auth/send-code', { email })).status).toBe(200);
    const limited = await post(t.app, '/api/auth/send-code', { email: 'Eager@example.com' });
    expect(limited.body.error).toEqual({ name: 'RateLimitError', message: AUTH_MESSAGES.tooManyForEmail(15) });
    expect((await post(t.app, '/api/auth/signup', { firstName: 'E', lastName: 'G', email })).status).toBe(429);
    t.clock.advance(15 * MINUTE + 1);
    expect((await post(t.app, '/api/auth/send-code', { email })).status).toBe(200);
  });
});

describe('X-Forwarded-For without TRUST_PROXY', () => {
  let direct: TestContext;
  beforeAll(async () => {
    direct = await securityContext({ SIGN_IN_SENDS_PER_IP: '3' });
  });
  afterAll(async () => {
    await direct.close();
  });

  it('is ignored: a client cannot escape the per-address limit by inventing addresses', async () => {
    for (const [n, ip] of ['198.51.100.1', '198.51.100.2', '2001:db8::1'].entries()) {
      expect((await post(direct.app, '/api/auth/send-code', { email: `spoof-${n}@example.com` }, ip)).status).toBe(200);
    }
    expect((await post(direct.app, '/api/auth/send-code', { email: 'spoof-4@example.com' }, '203.0.113.9')).status).toBe(429);
    const { rows } = await direct.database.pool.query(`SELECT DISTINCT request_ip FROM sign_in_codes`);
    expect(rows).toEqual([{ request_ip: '127.0.0.1' }]);
  });
});
