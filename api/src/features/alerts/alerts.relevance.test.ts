import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { ADAPTIVE_CARD_VERSION, type AlertItem, type AlertWebhookPayload } from '@radar/contracts';
import type { TestContext } from '../../../test/context.js';
import { signIn } from '../../../test/factories.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import type { ReplayServer } from '../../../test/replay-server.js';
import { T_A, T_B } from '../../../test/sync-harness.js';
import { grantTenant, insertTenant } from '../../../test/tenant-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import type { UsageReading } from '../../sources/usage-reports.js';
import { createUsageRepo } from '../usage/usage.repo.js';

/**
 * Saved searches on relevance, end to end: the production roadmap sync (A → B from the replay server) runs every
 * post-sync step as services.ts wires them, so the new item's relevance must be worked out before its alert is
 * matched. A → B: 499999 (Word) is new, 500002 (Microsoft 365 Copilot) changed status.
 *
 * Contoso (public) uses Word a lot and Copilot hardly; Fabrikam (private) uses Copilot a lot. A search on High
 * relevance alerts the Word item to everyone, and the Copilot item only to someone who may see Fabrikam.
 */
const AdaptiveCards = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js');

let server: ReplayServer;
let t: TestContext;
let hook: WebhookReceiver;

async function storeUsage(tenantId: number, readings: Omit<UsageReading, 'reportDate' | 'periodDays'>[]) {
  const repo = createUsageRepo(t.database.db);
  const now = t.clock.now();
  await repo.store(
    tenantId,
    readings.map((r) => ({ ...r, reportDate: '2026-01-28', periodDays: 30 })),
    now,
    '2025-01-01',
  );
  await repo.setStatus(tenantId, { at: now, read: true, error: null, permissionMissing: false });
}

/** The items a path's webhook got, whole. */
function itemsTo(path: string): AlertItem[] {
  return hook.requests
    .filter((r) => r.path === path)
    .flatMap((r) => (JSON.parse(r.body) as AlertWebhookPayload).sections.flatMap((s) => s.items))
    .sort((a, b) => a.externalId.localeCompare(b.externalId));
}

/** The items each path's webhook got, by title. */
function received(path: string): string[] {
  return hook.requests
    .filter((r) => r.path === path)
    .flatMap((r) => (JSON.parse(r.body) as AlertWebhookPayload).sections.flatMap((s) => s.items.map((i) => `${i.externalId} ${i.change}`)))
    .sort();
}

beforeAll(async () => {
  hook = await startWebhookReceiver();
  ({ t, server } = await createReplayTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' }, { now: T_A }));
  server.setRoadmap('A');
  expect((await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' })).run.status).toBe('success');
  // Tenants before them make the post-sync relevance refresh take a while (25 tenants a transaction): an alert matched
  // before that refresh is done would miss the new item's relevance.
  for (let i = 0; i < 100; i++) await insertTenant(t.database.db, { name: `Tenant ${i}`, visibility: 'private' });
  const contoso = await insertTenant(t.database.db, { name: 'Contoso', visibility: 'public' });
  const fabrikam = await insertTenant(t.database.db, { name: 'Fabrikam', visibility: 'private' });
  await storeUsage(contoso.id, [
    { workload: 'word', activeUsers: 800, licensedUsers: 1000 },
    { workload: 'copilot', activeUsers: 5, licensedUsers: 1000 },
  ]);
  await storeUsage(fabrikam.id, [
    { workload: 'word', activeUsers: 3, licensedUsers: 100 },
    { workload: 'copilot', activeUsers: 90, licensedUsers: 100 },
  ]);
  for (const id of [contoso.id, fabrikam.id]) await t.ctx.services.relevance.refreshTenant(id);

  const searchOf = async (agent: Awaited<ReturnType<typeof signIn>>['agent'], path: string, query: object, when: object = {}) => {
    const channel = await agent.post('/api/alert-channels').send({ kind: 'webhook', name: path, url: `${hook.url}${path}` });
    expect(channel.status).toBe(201);
    const search = await agent
      .post('/api/saved-searches')
      .send({ name: `Search ${path}`, query, alertOn: ['new', 'changed'], channelIds: [channel.body.id], ...when });
    expect(search.status).toBe(201);
  };
  // Ada may see Contoso only; Bea was given Fabrikam too.
  const { agent: ada } = await signIn(t.app, t.database.db);
  const { user: beaUser, agent: bea } = await signIn(t.app, t.database.db);
  await grantTenant(t.database.db, beaUser.id, fabrikam.id);
  await searchOf(ada, '/ada-high', { relevance: ['high'] });
  await searchOf(ada, '/ada-low', { relevance: ['low'] });
  await searchOf(bea, '/bea-high', { relevance: ['high'] });
  await searchOf(ada, '/ada-all', {});
  await searchOf(ada, '/ada-daily-high', { relevance: ['high'] }, { schedule: 'daily', hour: 8, timeZone: 'UTC' });
  await searchOf(bea, '/bea-weekly-high', { relevance: ['high'] }, { schedule: 'weekly', weekday: 6, hour: 8, timeZone: 'UTC' });
  // The same High search to Teams and Slack.
  const teams = await ada.post('/api/alert-channels').send({ kind: 'teams', name: 'IT Teams', url: `${hook.url}/teams/workflows/abc` });
  const slack = await ada.post('/api/alert-channels').send({ kind: 'slack', name: 'Slack', url: `${hook.url}/slack/services/T0/B0/xyz` });
  expect([teams.status, slack.status]).toEqual([201, 201]);
  expect(
    (
      await ada
        .post('/api/saved-searches')
        .send({ name: 'High for chat', query: { relevance: ['high'] }, alertOn: ['new', 'changed'], channelIds: [teams.body.id, slack.body.id] })
    ).status,
  ).toBe(201);

  server.setRoadmap('B');
  t.clock.set(T_B);
  expect((await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' })).run.status).toBe('success');
  await t.ctx.services.alerts.deliverNow();
  // 2026-02-07 is a Saturday: the daily and the weekly digest are due at 08:00 UTC, the sync in their period.
  await t.ctx.services.alerts.runDigests(new Date('2026-02-07T08:00:00Z'));
  await t.ctx.services.alerts.deliverNow();
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await server.close();
  await hook.close();
});

describe('saved searches on relevance', () => {
  it('alerts an item that changed and is High for the owner’s tenant, the new item included', () => {
    expect(received('/ada-high')).toEqual(['499999 new']);
  });

  it('does not alert a High-only search about an item that is Low for the owner’s tenants', () => {
    // 500002 and 500101 (Copilot in Teams meetings) are Low for Contoso (5 of 1,000 used Copilot): the Low search has them.
    expect(received('/ada-low')).toEqual(['500002 changed', '500004 changed', '500101 new']);
  });

  it('never alerts on the relevance of a private tenant the owner may not see', () => {
    // The Copilot items are High for Fabrikam only: Bea, who may see it, gets them; Ada's High search above did not.
    expect(received('/bea-high')).toEqual(['499999 new', '500002 changed', '500004 changed', '500101 new']);
  });

  it('matches the same way in daily and weekly digests', () => {
    expect(received('/ada-daily-high')).toEqual(['499999 new']);
    expect(received('/bea-weekly-high')).toEqual(['499999 new', '500002 changed', '500004 changed', '500101 new']);
  });

  it('a search without relevance gets every change, as before', () => {
    expect(received('/ada-all')).toEqual(['499999 new', '500002 changed', '500004 changed', '500005 changed', '500009 changed', '500101 new']);
  });

  it('says each item’s relevance to the owner’s tenants: its level, the tenant and why', () => {
    const contoso = { tenant: 'Contoso', tenantId: expect.any(Number) };
    expect(itemsTo('/ada-high').map((i) => i.relevance)).toEqual([
      { level: 'high', ...contoso, reason: '800 people used Word in the last 30 days, 80 % of licensed users' },
    ]);
    const copilotLow = { level: 'low', ...contoso, reason: '5 people used Microsoft 365 Copilot in the last 30 days, under 1 % of licensed users' };
    expect(itemsTo('/ada-low').map((i) => i.relevance)).toEqual([copilotLow, copilotLow, copilotLow]);
    // Bea sees Fabrikam too: the Copilot items are High there, and the tenant named is Fabrikam.
    expect(itemsTo('/bea-high').map((i) => [i.externalId, i.relevance?.level, i.relevance?.tenant])).toEqual([
      ['499999', 'high', 'Contoso'],
      ['500002', 'high', 'Fabrikam'],
      ['500004', 'high', 'Fabrikam'],
      ['500101', 'high', 'Fabrikam'],
    ]);
    // Unknown says nothing: Planner has no usage report, SharePoint's was not read.
    const all = Object.fromEntries(itemsTo('/ada-all').map((i) => [i.externalId, i.relevance?.level ?? null]));
    expect(all).toEqual({ '499999': 'high', '500002': 'low', '500004': 'low', '500005': null, '500009': null, '500101': 'low' });
  });

  it('shows it in Teams (a valid Adaptive Card) and Slack', () => {
    const line = 'High relevance · Contoso: 800 people used Word in the last 30 days, 80 % of licensed users';
    const [teams] = hook.requests.filter((r) => r.path.startsWith('/teams'));
    const content = JSON.parse(teams!.body).attachments[0].content;
    const card = new AdaptiveCards.AdaptiveCard();
    const context = new AdaptiveCards.SerializationContext();
    context.targetVersion = AdaptiveCards.Version.parse(ADAPTIVE_CARD_VERSION, context);
    card.parse(content, context);
    expect(Array.from({ length: context.eventCount }, (_, i) => context.getEventAt(i).message)).toEqual([]);
    expect(card.validateProperties().validationEvents).toEqual([]);
    expect(JSON.stringify(content)).toContain(line);
    const [slack] = hook.requests.filter((r) => r.path.startsWith('/slack'));
    expect(slack!.body).toContain(`_${line}_`);
  });
});
