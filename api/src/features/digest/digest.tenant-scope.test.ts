import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { digestSubscribers, mailOutbox } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';
import type { UsageReading } from '../../sources/usage-reports.js';
import { createUsageRepo } from '../usage/usage.repo.js';

/**
 * The weekly digest mail holds what its subscriber may see: an account its tenant scope as its roles and grants are
 * when the digest is written (an admin every tenant, a user the public tenants and those given), a visitor's address
 * a guest's (public tenants only). The public digest page is a guest's. An account's sections are ordered most
 * relevant to its own tenants first, each entry saying its relevance; a visitor's keep their order and say none.
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
  // A post of no tenant (newest of the week): everyone's, with no relevance for anyone.
  await insertMessage(t.database.db, { title: 'Post of no tenant', createdDate: new Date('2026-02-14T09:00:00Z') });
  // The roadmap's week, oldest first: Word, Teams, Planner (no usage report: Unknown), Excel (not read: Unknown).
  for (const [title, products, day] of [
    ['Word: Draft from a template', ['Word'], 10],
    ['Teams: Town hall recaps', ['Microsoft Teams'], 11],
    ['Planner: Task history', ['Planner'], 12],
    ['Excel: Python in Excel', ['Excel'], 13],
  ] as const) {
    await insertRoadmapItem(t.database.db, { title, products: [...products], createdDate: new Date(`2026-02-${day}T09:00:00Z`) });
  }
  // Contoso uses Teams a lot and Word hardly; Fabrikam (private) uses Word a lot.
  const usage = createUsageRepo(t.database.db);
  const read = async (tenantId: number, readings: Omit<UsageReading, 'reportDate' | 'periodDays'>[]) => {
    await usage.store(
      tenantId,
      readings.map((r) => ({ ...r, reportDate: '2026-02-12', periodDays: 30 })),
      t.clock.now(),
      '2025-01-01',
    );
    await usage.setStatus(tenantId, { at: t.clock.now(), read: true, error: null, permissionMissing: false });
    await t.ctx.services.relevance.refreshTenant(tenantId);
  };
  await read(contoso.id, [
    { workload: 'teams', activeUsers: 900, licensedUsers: 1000 },
    { workload: 'word', activeUsers: 5, licensedUsers: 1000 },
  ]);
  await read(fabrikam.id, [{ workload: 'word', activeUsers: 90, licensedUsers: 100 }]);
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

describe('the weekly digest by relevance', () => {
  /** Each subscriber's mail from the run (sent once a week: a second run queues nothing). */
  async function mailTo(address: string) {
    await t.ctx.services.digest.sendWeeklyDigest();
    const [mail] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address));
    return mail!;
  }
  /** The titles of one section of the plain-text part, in order, each with its relevance line when it has one. */
  function section(text: string, title: string): string[] {
    const block = text.split(/\n(?=== )/).find((b) => b.startsWith(`== ${title} (`)) ?? '';
    const out: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('* ')) out.push(line.slice(2));
      else if (/^ {2}(High|Medium|Low) relevance: /.test(line)) out[out.length - 1] += ` [${line.trim()}]`;
    }
    return out;
  }
  const TEAMS_HIGH = 'High relevance: 900 people used Teams in the last 30 days, 90 % of licensed users';

  it('orders a user’s sections by the relevance to their tenants, High first, and says it on each entry', async () => {
    const mail = await mailTo(plainEmail);
    expect(section(mail.text, 'New on the roadmap')).toEqual([
      `Teams: Town hall recaps [${TEAMS_HIGH}]`,
      'Word: Draft from a template [Low relevance: 5 people used Word in the last 30 days, under 1 % of licensed users]',
      // Unknown says nothing, as on the dashboard; newest first among equals.
      'Excel: Python in Excel',
      'Planner: Task history',
    ]);
    // The post of no tenant has no relevance: after the relevant one, though it is newer.
    expect(section(mail.text, 'New in Message Center')).toEqual([`Contoso post of the week [${TEAMS_HIGH}]`, 'Post of no tenant']);
    expect(mail.html).toContain('High relevance');
    expect(mail.html).toContain('data-relevance="high"');
  });

  it('never carries the relevance of a tenant the reader may not see', async () => {
    const mail = await mailTo(plainEmail);
    for (const part of [mail.html, mail.text]) {
      expect(part).not.toContain('Fabrikam');
      expect(part).not.toContain('90 people used Word');
    }
  });

  it('names the tenant when the reader sees several, each entry at its highest level among them', async () => {
    for (const address of [grantedEmail, adminEmail]) {
      const mail = await mailTo(address);
      expect(section(mail.text, 'New on the roadmap')).toEqual([
        'Teams: Town hall recaps [High relevance: Contoso: 900 people used Teams in the last 30 days, 90 % of licensed users]',
        'Word: Draft from a template [High relevance: Fabrikam: 90 people used Word in the last 30 days, 90 % of licensed users]',
        'Excel: Python in Excel',
        'Planner: Task history',
      ]);
    }
  });

  it('keeps a visitor’s digest in its own order, without relevance', async () => {
    const mail = await mailTo('visitor@example.com');
    expect(section(mail.text, 'New on the roadmap')).toEqual([
      'Excel: Python in Excel',
      'Planner: Task history',
      'Teams: Town hall recaps',
      'Word: Draft from a template',
    ]);
    expect(section(mail.text, 'New in Message Center')).toEqual(['Post of no tenant', 'Contoso post of the week']);
    expect(mail.html).not.toContain('relevance');
    const page = await request(t.app).get('/api/weekly-digest');
    expect(page.text).not.toContain('relevance');
  });

  it('renders a subscriber’s copy exactly as the run wrote it', async () => {
    const [row] = await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, grantedEmail));
    const own = await t.ctx.services.digest.renderDigestFor(row!, t.clock.now());
    const mail = await mailTo(grantedEmail);
    expect(own.text).toBe(mail.text);
    expect(own.html).toBe(mail.html);
  });
});
