import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { digestSubscribers, mailOutbox } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';

/**
 * The weekly digest mail holds what its subscriber may see: an account its tenant scope as its roles and grants are
 * when the digest is written (an admin every tenant, a user the public tenants and those given), a visitor's address
 * a guest's (public tenants only). The public digest page is a guest's.
 */
let t: TestContext;
let grantedEmail = '';
let plainEmail = '';
let adminEmail = '';
const PRIVATE_TITLE = 'Fabrikam-only post of the week';
const NOW = '2026-02-15T10:00:00Z';

beforeAll(async () => {
  t = await createTestContext({}, { now: NOW });
  const contoso = await insertTenant(t.database.db, { name: 'Contoso', visibility: 'public' });
  const fabrikam = await insertTenant(t.database.db, { name: 'Fabrikam', visibility: 'private' });
  const week = new Date('2026-02-12T09:00:00Z');
  const pub = await insertMessage(t.database.db, { title: 'Contoso post of the week', createdDate: week });
  const priv = await insertMessage(t.database.db, { title: PRIVATE_TITLE, createdDate: week, isFeatured: true, featuredAt: week });
  await receivedBy(t.database.db, pub.id, [contoso.id]);
  await receivedBy(t.database.db, priv.id, [fabrikam.id]);
  const { user: granted, agent } = await signIn(t.app, t.database.db);
  await grantTenant(t.database.db, granted.id, fabrikam.id);
  expect((await agent.post('/api/weekly-digest/subscribe-authenticated')).status).toBe(200);
  grantedEmail = granted.email;
  const { user: plainUser, agent: plain } = await signIn(t.app, t.database.db);
  expect((await plain.post('/api/weekly-digest/subscribe-authenticated')).status).toBe(200);
  plainEmail = plainUser.email;
  const { user: admin, agent: adminAgent } = await signIn(t.app, t.database.db, { roles: ['User', 'Admin'] });
  expect((await adminAgent.post('/api/weekly-digest/subscribe-authenticated')).status).toBe(200);
  adminEmail = admin.email;
  await t.database.db.insert(digestSubscribers).values({ email: 'visitor@example.com', origin: 'signup', confirmedAt: new Date('2026-02-01T00:00:00Z') });
});
afterAll(async () => {
  await t.close();
});

describe('the weekly digest and private tenants', () => {
  it('mails each subscriber the posts of the tenants they may see', async () => {
    expect(await t.ctx.services.digest.sendWeeklyDigest()).toMatchObject({ queued: 4 });
    const mails = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'weekly-digest'));
    const carries = Object.fromEntries(mails.map((m) => [m.toAddress, `${m.subject}${m.html}${m.text}`.includes(PRIVATE_TITLE)]));
    expect(carries).toEqual({ [grantedEmail]: true, [adminEmail]: true, [plainEmail]: false, 'visitor@example.com': false });
    for (const mail of mails) expect(mail.html).toContain('Contoso post of the week');
    // A subscriber's copy from the run is the one rendered for them alone.
    const [grantedRow] = await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, grantedEmail));
    const own = await t.ctx.services.digest.renderDigestFor(grantedRow!, t.clock.now());
    expect(own.html).toContain(PRIVATE_TITLE);
  });

  it('shows the public tenants’ posts on the digest page, whoever asks', async () => {
    const page = await request(t.app).get('/api/weekly-digest');
    expect(page.text).toContain('Contoso post of the week');
    expect(page.text).not.toContain(PRIVATE_TITLE);
  });
});
