import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AlertWebhookPayload } from '@radar/contracts';
import type { TestContext } from '../../../test/context.js';
import { createTestContext } from '../../../test/context.js';
import { insertHistory, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant } from '../../../test/tenant-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import type { UsageReading } from '../../sources/usage-reports.js';
import { createUsageRepo } from '../usage/usage.repo.js';

/**
 * An item whose relevance moves into a saved search's levels after a usage read ("now High for Contoso") is a change
 * to that search: alerted once, by the tenant run's follow-up (services.tenantFollowUp) as it runs in production,
 * only for a tenant the owner may see, not again when a share goes to and fro around a threshold, and in the daily
 * digest of the period. The relevance rows are the real refresh's; the moves are kept by item_relevance's trigger.
 */
let t: TestContext;
let hook: WebhookReceiver;
let contoso: { id: number };
let fabrikam: { id: number };
let copilot: { id: number; externalId: string };
let word: { id: number; externalId: string };
let teams: { id: number; externalId: string };
let ada: Awaited<ReturnType<typeof signIn>>['agent'];
let bea: Awaited<ReturnType<typeof signIn>>['agent'];
let beaId = 0;
let beaChannel = 0;
let day = 1;

const DAY = 24 * 60 * 60 * 1000;
const COPILOT_HIGH = 'Now High relevance for Contoso (was Low): 900 people used Microsoft 365 Copilot in the last 30 days, 90 % of licensed users';

/** A usage read of the tenant now (a report of a newer day), then the tenant run's follow-up: relevance, its alerts. */
async function usageRead(tenantId: number, readings: Omit<UsageReading, 'reportDate' | 'periodDays'>[]) {
  const repo = createUsageRepo(t.database.db);
  const now = t.clock.now();
  const reportDate = `2026-03-${String(day++).padStart(2, '0')}`;
  await repo.store(
    tenantId,
    readings.map((r) => ({ ...r, reportDate, periodDays: 30 })),
    now,
    '2025-01-01',
  );
  await repo.setStatus(tenantId, { at: now, read: true, error: null, permissionMissing: false });
  hook.requests.length = 0;
  await t.ctx.services.tenantFollowUp(tenantId, { usageNow: false });
  await t.ctx.services.alerts.deliverNow();
}

/** Each path's items as "externalId change: lines". */
function received(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of hook.requests) {
    const body = JSON.parse(r.body) as AlertWebhookPayload;
    out[r.path] = [...(out[r.path] ?? []), ...body.sections.flatMap((s) => s.items.map((i) => `${i.externalId} ${i.change}: ${i.changes.join(' | ')}`))];
  }
  return out;
}

async function save(agent: typeof ada, path: string, body: object): Promise<number> {
  const channel = await agent.post('/api/alert-channels').send({ kind: 'webhook', name: path, url: `${hook.url}${path}` });
  expect(channel.status).toBe(201);
  const search = await agent.post('/api/saved-searches').send({ name: `Search ${path}`, alertOn: ['changed'], channelIds: [channel.body.id], ...body });
  expect(search.status).toBe(201);
  return channel.body.id;
}

beforeAll(async () => {
  hook = await startWebhookReceiver();
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' }, { now: '2026-03-01T06:00:00Z' });
  contoso = await insertTenant(t.database.db, { name: 'Contoso', visibility: 'public' });
  fabrikam = await insertTenant(t.database.db, { name: 'Fabrikam', visibility: 'private' });
  copilot = await insertRoadmapItem(t.database.db, { title: 'Copilot: Agents in Word', products: ['Microsoft Copilot (Microsoft 365)'] });
  word = await insertRoadmapItem(t.database.db, { title: 'Word: Draft from a template', products: ['Word'] });
  teams = await insertRoadmapItem(t.database.db, { title: 'Teams: Town halls', products: ['Microsoft Teams'] });
  await insertRoadmapItem(t.database.db, { title: 'SharePoint: Site templates', products: ['SharePoint'] });
  // The first reads: rows written for the first time are no moves.
  await usageRead(contoso.id, [
    { workload: 'copilot', activeUsers: 5, licensedUsers: 1000 },
    { workload: 'word', activeUsers: 800, licensedUsers: 1000 },
    { workload: 'teams', activeUsers: 10, licensedUsers: 1000 },
  ]);
  await usageRead(fabrikam.id, [
    { workload: 'word', activeUsers: 3, licensedUsers: 100 },
    { workload: 'copilot', activeUsers: 90, licensedUsers: 100 },
  ]);
  ({ agent: ada } = await signIn(t.app, t.database.db));
  const { user: beaUser, agent: beaAgent } = await signIn(t.app, t.database.db);
  bea = beaAgent;
  beaId = beaUser.id;
  await grantTenant(t.database.db, beaUser.id, fabrikam.id);
  await save(ada, '/ada-high', { query: { relevance: ['high'] } });
  await save(ada, '/ada-medium-up', { query: { relevance: ['high', 'medium'] } });
  await save(ada, '/ada-new-only', { query: { relevance: ['high'] }, alertOn: ['new'] });
  await save(ada, '/ada-plain', { query: {} });
  beaChannel = await save(bea, '/bea-high', { query: { relevance: ['high'] } });
  // And by e-mail: the move's line is one of the item's changes in the mail too.
  const mail = await ada.post('/api/alert-channels').send({ kind: 'email', name: 'Inbox' });
  expect(mail.status).toBe(201);
  expect(
    (await ada.post('/api/saved-searches').send({ name: 'High by mail', query: { relevance: ['high'] }, alertOn: ['changed'], channelIds: [mail.body.id] }))
      .status,
  ).toBe(201);
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await hook.close();
});

describe('alerts on an item that became relevant', () => {
  it('alerts the searches whose levels the item came into, once, saying for which tenant and why', async () => {
    t.clock.advance(DAY);
    // Copilot 5 → 900 of 1,000 (Low → High); SharePoint read for the first time (Unknown → High) is no move.
    await usageRead(contoso.id, [
      { workload: 'copilot', activeUsers: 900, licensedUsers: 1000 },
      { workload: 'word', activeUsers: 800, licensedUsers: 1000 },
      { workload: 'teams', activeUsers: 10, licensedUsers: 1000 },
      { workload: 'sharepoint', activeUsers: 700, licensedUsers: 1000 },
    ]);
    expect(received()).toEqual({
      '/ada-high': [`${copilot.externalId} changed: ${COPILOT_HIGH}`],
      '/ada-medium-up': [`${copilot.externalId} changed: ${COPILOT_HIGH}`],
      // Bea may see Contoso too: the item is news for Contoso even though it was High for Fabrikam already.
      '/bea-high': [`${copilot.externalId} changed: ${COPILOT_HIGH}`],
    });
    const { rows: mails } = await t.database.pool.query<{ html: string; text: string }>("SELECT html, text FROM mail_outbox WHERE kind = 'saved-search-alert'");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`* ${COPILOT_HIGH}`);
    expect(mails[0]?.html).toContain(COPILOT_HIGH);
    // The item's chip, as the list shows it, under its title.
    expect(mails[0]?.text).toContain(
      'Copilot: Agents in Word\nHigh relevance: Contoso: 900 people used Microsoft 365 Copilot in the last 30 days, 90 % of licensed users\n',
    );
    expect(mails[0]?.html).toMatch(/<span data-relevance="high"[^>]*>High relevance<\/span>Contoso: 900 people used/);
    // Taken once: the sweep finds nothing left.
    hook.requests.length = 0;
    expect(await t.ctx.services.alerts.alertRelevance()).toEqual({ moves: 0, messages: 0 });
    await t.ctx.services.alerts.sweep();
    await t.ctx.services.alerts.deliverNow();
    expect(hook.requests).toEqual([]);
  });

  it('never tells a move of a private tenant to someone who may not see it', async () => {
    t.clock.advance(DAY);
    // Word 3 → 90 of 100 for Fabrikam: the Word item is in Ada's High view (High for Contoso), but the move is Fabrikam's.
    await usageRead(fabrikam.id, [
      { workload: 'word', activeUsers: 90, licensedUsers: 100 },
      { workload: 'copilot', activeUsers: 90, licensedUsers: 100 },
    ]);
    expect(received()).toEqual({
      '/bea-high': [`${word.externalId} changed: Now High relevance for Fabrikam (was Low): 90 people used Word in the last 30 days, 90 % of licensed users`],
    });
  });

  it('alerts a share going to and fro around a threshold once a week at most', async () => {
    const contosoCopilot = (copilotUsers: number) => [
      { workload: 'copilot' as const, activeUsers: copilotUsers, licensedUsers: 1000 },
      { workload: 'word' as const, activeUsers: 800, licensedUsers: 1000 },
      { workload: 'teams' as const, activeUsers: 10, licensedUsers: 1000 },
    ];
    t.clock.advance(DAY);
    // High → Medium: out of the High search's levels (no alert), still in High-or-Medium (no alert).
    await usageRead(contoso.id, contosoCopilot(300));
    expect(received()).toEqual({});
    t.clock.advance(DAY);
    // Back to High a day later: the High search heard of it two days ago.
    await usageRead(contoso.id, contosoCopilot(900));
    expect(received()).toEqual({});
    t.clock.advance(DAY);
    await usageRead(contoso.id, contosoCopilot(300));
    t.clock.advance(8 * DAY);
    // Eight days after it left High, coming back is news again.
    await usageRead(contoso.id, contosoCopilot(900));
    const back = `${copilot.externalId} changed: ${COPILOT_HIGH.replace('(was Low)', '(was Medium)')}`;
    expect(received()).toEqual({ '/ada-high': [back], '/bea-high': [back] });
  });

  it('leaves a move that followed the item’s own change of products to that change’s alert', async () => {
    t.clock.advance(DAY);
    await insertHistory(t.database.db, teams.id, {
      changeType: 'changed',
      changeDate: t.clock.now(),
      changedFields: ['products'],
      previousValues: { products: ['Microsoft Teams Rooms'] },
      newValues: { products: ['Microsoft Teams'] },
    });
    await usageRead(contoso.id, [
      { workload: 'copilot', activeUsers: 900, licensedUsers: 1000 },
      { workload: 'word', activeUsers: 800, licensedUsers: 1000 },
      { workload: 'teams', activeUsers: 950, licensedUsers: 1000 },
    ]);
    expect(received()).toEqual({});
    const { rows } = await t.database.pool.query('SELECT from_level, to_level FROM relevance_moves WHERE item_id = $1', [teams.id]);
    expect(rows).toEqual([{ from_level: 1, to_level: 3 }]);
  });

  it('puts the period’s moves into a daily digest, the period taken as a whole', async () => {
    t.clock.set('2026-04-01T09:00:00Z');
    await save(ada, '/ada-daily', { query: { relevance: ['high'] }, schedule: 'daily', hour: 8, timeZone: 'UTC' });
    const contosoCopilot = (copilotUsers: number, teamsUsers: number) => [
      { workload: 'copilot' as const, activeUsers: copilotUsers, licensedUsers: 1000 },
      { workload: 'word' as const, activeUsers: 800, licensedUsers: 1000 },
      { workload: 'teams' as const, activeUsers: teamsUsers, licensedUsers: 1000 },
    ];
    // In the period: Copilot High → Low → High (taken together, it did not come into High) and Teams High → Low.
    t.clock.set('2026-04-01T12:00:00Z');
    await usageRead(contoso.id, contosoCopilot(5, 10));
    t.clock.set('2026-04-01T18:00:00Z');
    await usageRead(contoso.id, contosoCopilot(900, 10));
    hook.requests.length = 0;
    await t.ctx.services.alerts.runDigests(new Date('2026-04-02T08:00:00Z'));
    await t.ctx.services.alerts.deliverNow();
    expect(received()['/ada-daily']).toBeUndefined();

    // Nine days after it left High, Teams comes back (Low → High): the instant searches tell it, then the digest.
    t.clock.set('2026-04-10T12:00:00Z');
    await usageRead(contoso.id, contosoCopilot(900, 950));
    expect(received()['/ada-high']).toEqual([
      `${teams.externalId} changed: Now High relevance for Contoso (was Low): 950 people used Teams in the last 30 days, 95 % of licensed users`,
    ]);
    hook.requests.length = 0;
    await t.ctx.services.alerts.runDigests(new Date('2026-04-11T08:00:00Z'));
    await t.ctx.services.alerts.deliverNow();
    const digest = hook.requests.filter((r) => r.path === '/ada-daily').map((r) => JSON.parse(r.body) as AlertWebhookPayload);
    expect(digest).toHaveLength(1);
    expect(digest[0]?.trigger).toBe('daily');
    expect(received()['/ada-daily']).toEqual([
      `${teams.externalId} changed: Now High relevance for Contoso (was Low): 950 people used Teams in the last 30 days, 95 % of licensed users`,
    ]);
  });

  it('withdraws an alert waiting for its retry once its owner may no longer see the tenant it tells of', async () => {
    const { agent: admin } = await signIn(t.app, t.database.db, { roles: ['User', 'Admin'] });
    const fabrikamCopilot = (copilotUsers: number) => [
      { workload: 'word' as const, activeUsers: 90, licensedUsers: 100 },
      { workload: 'copilot' as const, activeUsers: copilotUsers, licensedUsers: 100 },
    ];
    t.clock.advance(DAY);
    await usageRead(fabrikam.id, fabrikamCopilot(3));
    t.clock.advance(8 * DAY);
    // The roadmap item is everyone's: only the tenant it names makes the alert Fabrikam's business.
    hook.answerAlways({ status: 503 });
    await usageRead(fabrikam.id, fabrikamCopilot(90));
    hook.answerAlways(null);
    expect(received()).toEqual({
      '/bea-high': [
        `${copilot.externalId} changed: Now High relevance for Fabrikam (was Low): 90 people used Microsoft 365 Copilot in the last 30 days, 90 % of licensed users`,
      ],
    });

    expect((await admin.put(`/api/admin/app-users/${beaId}/tenants`).send({ tenantIds: [] })).status).toBe(200);
    t.clock.advance(DAY);
    hook.requests.length = 0;
    await t.ctx.services.alerts.deliverNow();
    expect(hook.requests).toEqual([]);
    const log = await bea.get(`/api/alert-channels/${beaChannel}/deliveries`);
    expect(log.body[0]).toMatchObject({
      outcome: 'failed',
      error: 'Not sent: the channel’s owner may no longer see a tenant whose relevance it tells (a private tenant’s)',
    });
  });
});
