import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { digestSubscribers, mailOutbox } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';
import { createTriageRepo } from '../triage/triage.repo.js';

/**
 * Staff (moderators and admins) find the change health of the triage they may see at the top of their weekly digest;
 * everyone else's digest is as before. A moderator without a grant sees the public tenant's records only.
 */
let t: TestContext;
const emails: Record<'admin' | 'moderator' | 'user', string> = { admin: '', moderator: '', user: '' };

beforeAll(async () => {
  t = await createTestContext({}, { now: '2026-02-15T10:00:00Z' });
  const db = t.database.db;
  const contoso = await insertTenant(db, { name: 'Contoso', visibility: 'public' });
  const fabrikam = await insertTenant(db, { name: 'Fabrikam', visibility: 'private' });
  const end = new Date('2026-06-01T00:00:00Z');
  const pub = await insertMessage(db, { title: 'Contoso post', createdDate: new Date('2026-02-12T09:00:00Z'), endDate: end });
  // Fabrikam's post is overdue: Microsoft's act-by date passed a week ago.
  const priv = await insertMessage(db, {
    title: 'Fabrikam post',
    createdDate: new Date('2026-02-01T09:00:00Z'),
    endDate: end,
    actionRequiredBy: new Date('2026-02-08T00:00:00Z'),
  });
  await receivedBy(db, pub.id, [contoso.id]);
  await receivedBy(db, priv.id, [fabrikam.id]);
  // Triage started for both tenants before the posts (the starting line: triage-start.test.ts).
  await t.database.pool.query(`UPDATE tenants SET triage_start = '2026-01-01'`);
  await createTriageRepo(db).openRecords('all', new Date('2026-02-10T00:00:00Z'));
  for (const [who, roles] of [
    ['admin', ['User', 'Admin']],
    ['moderator', ['User', 'Moderator']],
    ['user', ['User']],
  ] as const) {
    const { user, agent } = await signIn(t.app, db, { roles: [...roles] });
    expect((await agent.post('/api/weekly-digest/subscribe-authenticated')).status).toBe(200);
    emails[who] = user.email;
  }
});
afterAll(async () => {
  await t.close();
});

describe('the weekly digest for staff', () => {
  it('opens with the change health of the triage each may see; others get none', async () => {
    expect(await t.ctx.services.digest.sendWeeklyDigest()).toMatchObject({ queued: 3 });
    const mails = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'weekly-digest'));
    const text = Object.fromEntries(mails.map((m) => [m.toAddress, m.text]));
    // The admin: both records; Fabrikam's (an act-by date: medium, weight 2 of 3) is overdue.
    expect(text[emails.admin]).toMatch(/Change health 47\/100 over 2 open items — overdue: 1 \(−33\); nobody owns them: 2 \(−20\)/);
    expect(text[emails.moderator]).toMatch(/Change health 80\/100 over 1 open item — nobody owns them: 1 \(−20\)/);
    expect(text[emails.user]).not.toContain('Change health');
    // The run's copy is the one rendered for the subscriber alone.
    const [adminRow] = await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, emails.admin));
    const own = await t.ctx.services.digest.renderDigestFor(adminRow!, t.clock.now());
    expect(own.text).toBe(text[emails.admin]);
  });
});
