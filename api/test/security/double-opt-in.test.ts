import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createUnsubscribeToken, unsubscribeUrl } from '../../src/mail/unsubscribe-token.js';
import type { TestContext } from '../context.js';
import { latestMailTo } from '../auth-helpers.js';
import { confirmDigestByMail, digestConfirmPath } from '../digest-helpers.js';
import { securityContext } from './harness.js';

/**
 * The weekly digest's double opt-in (ASVS V2.5-style verification of a contact address, and no mail to an address
 * that did not ask): a visitor signup sends one confirmation mail with a signed, single-use link and nothing else;
 * only a confirmed address gets digests; the GET of the link changes nothing; unconfirmed signups expire; signing up
 * again after unsubscribing needs a new confirmation; the visitor's name is never put in a mail before confirmation.
 */
const HOUR = 3600_000;
let t: TestContext;
let ip = 0;
const signup = (email: string, firstName = 'Grace', lastName = 'Hopper') =>
  request(t.app).post('/api/weekly-digest/signup').set('X-Forwarded-For', `10.8.0.${++ip}`).send({ email, firstName, lastName });
const digestsTo = async (email: string) =>
  Number((await t.database.pool.query(`SELECT count(*) FROM mail_outbox WHERE kind = 'weekly-digest' AND to_address = $1`, [email])).rows[0].count);
let sunday = new Date('2026-02-08T08:00:00Z').getTime();
/** The Sunday job, each time for the next week. */
const sendDigest = () => {
  sunday += 7 * 24 * HOUR;
  return t.ctx.services.digest.sendWeeklyDigest({ now: new Date(sunday) });
};

beforeAll(async () => {
  t = await securityContext({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await t.close();
});

describe('double opt-in', () => {
  it('mails a confirmation without the name; no digest until the link is confirmed by POST', async () => {
    expect((await signup('optin@example.com')).status).toBe(200);
    const mail = (await latestMailTo(t, 'optin@example.com', 'digest-confirm'))!;
    expect(`${mail.subject}\n${mail.html}\n${mail.text}`).not.toMatch(/Grace|Hopper/);
    await sendDigest();
    expect(await digestsTo('optin@example.com')).toBe(0);
    // Mail scanners fetch links: the GET shows a button and changes nothing.
    const path = await digestConfirmPath(t, 'optin@example.com');
    const page = await request(t.app).get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm subscription</button>');
    expect(page.text).toContain('method="post"');
    await sendDigest();
    expect(await digestsTo('optin@example.com')).toBe(0);
    const confirmed = await request(t.app).post(path);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('You are subscribed');
    await sendDigest();
    expect(await digestsTo('optin@example.com')).toBe(1);
    // After confirmation the digest greets by the name given at signup.
    expect((await latestMailTo(t, 'optin@example.com', 'weekly-digest'))!.text).toContain('Hi Grace');
  });

  it('a link works once; a newer signup replaces it; a forged one is refused', async () => {
    await signup('once@example.com');
    const first = await digestConfirmPath(t, 'once@example.com');
    t.clock.advance(5 * 60_000);
    await signup('once@example.com');
    const second = await digestConfirmPath(t, 'once@example.com');
    expect(second).not.toBe(first);
    expect((await request(t.app).post(first)).status).toBe(400);
    expect((await request(t.app).post(second)).status).toBe(200);
    // Used: it says so, and changes nothing.
    const again = await request(t.app).post(second);
    expect([again.status, again.text.includes('You are subscribed')]).toEqual([200, true]);
    const forged = second.replace(/\.[A-Za-z0-9_-]+$/, '.AAAA');
    expect((await request(t.app).post(forged)).status).toBe(400);
    expect((await request(t.app).get('/api/weekly-digest/confirm')).status).toBe(400);
    // An unsubscribe token is not a confirmation token.
    const unsubscribeToken = createUnsubscribeToken(t.ctx.secret, { kind: 'digest', subscriberId: 1 });
    expect((await request(t.app).post(`/api/weekly-digest/confirm?token=${encodeURIComponent(unsubscribeToken)}`)).status).toBe(400);
  });

  it('sends at most one confirmation per address every few minutes', async () => {
    await signup('flood@example.com');
    await signup('flood@example.com');
    await signup('flood@example.com');
    const { rows } = await t.database.pool.query(`SELECT count(*) FROM mail_outbox WHERE to_address = 'flood@example.com'`);
    expect(Number(rows[0].count)).toBe(1);
  });

  it('unconfirmed signups expire: the link stops working and the row is deleted', async () => {
    await signup('late@example.com');
    const path = await digestConfirmPath(t, 'late@example.com');
    t.clock.advance(48 * HOUR);
    const expired = await request(t.app).post(path);
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('This link has expired');
    expect(await t.ctx.services.digest.expireConfirmations()).toBeGreaterThanOrEqual(1);
    expect((await t.database.pool.query(`SELECT id FROM digest_subscribers WHERE email = 'late@example.com'`)).rows).toEqual([]);
  });

  it('signing up again after unsubscribing needs a new confirmation (an old link does not re-subscribe)', async () => {
    await signup('back@example.com');
    const firstLink = await digestConfirmPath(t, 'back@example.com');
    await confirmDigestByMail(t, 'back@example.com');
    const { rows } = await t.database.pool.query(`SELECT id FROM digest_subscribers WHERE email = 'back@example.com'`);
    const unsubscribe = unsubscribeUrl('', createUnsubscribeToken(t.ctx.secret, { kind: 'digest', subscriberId: rows[0].id }));
    expect((await request(t.app).post(unsubscribe).type('form').send('List-Unsubscribe=One-Click')).status).toBe(200);
    expect((await request(t.app).post(firstLink)).status).toBe(400);
    t.clock.advance(5 * 60_000);
    await signup('back@example.com');
    const before = await digestsTo('back@example.com');
    await sendDigest();
    expect(await digestsTo('back@example.com')).toBe(before);
    await confirmDigestByMail(t, 'back@example.com');
    await sendDigest();
    expect(await digestsTo('back@example.com')).toBe(before + 1);
  });
});
