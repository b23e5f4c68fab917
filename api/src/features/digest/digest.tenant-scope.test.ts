import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { digestSubscribers, mailOutbox } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';

/**
 * The weekly digest is one mail for every subscriber, visitors and accounts alike, so it holds what a guest may see:
 * a private tenant's post of the week is in no one's digest and not on the digest page, even for an account given
 * that tenant (it sees the post on the dashboard).
 */
let t: TestContext;
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
  const { agent: plain } = await signIn(t.app, t.database.db);
  expect((await plain.post('/api/weekly-digest/subscribe-authenticated')).status).toBe(200);
  await t.database.db.insert(digestSubscribers).values({ email: 'visitor@example.com', origin: 'signup', confirmedAt: new Date('2026-02-01T00:00:00Z') });
});
afterAll(async () => {
  await t.close();
});

describe('the weekly digest and private tenants', () => {
  it('mails every subscriber the public tenants’ posts only', async () => {
    expect(await t.ctx.services.digest.sendWeeklyDigest()).toMatchObject({ queued: 3 });
    const mails = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'weekly-digest'));
    expect(mails).toHaveLength(3);
    for (const mail of mails) {
      expect(mail.html).toContain('Contoso post of the week');
      expect(`${mail.subject}${mail.html}${mail.text}`).not.toContain(PRIVATE_TITLE);
    }
  });

  it('shows the public tenants’ posts on the digest page, whoever asks', async () => {
    const page = await request(t.app).get('/api/weekly-digest');
    expect(page.text).toContain('Contoso post of the week');
    expect(page.text).not.toContain(PRIVATE_TITLE);
  });
});
