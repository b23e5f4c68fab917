import { afterEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';
import type { UsageReading } from '../../sources/usage-reports.js';
import { createUsageRepo } from '../usage/usage.repo.js';
import { createTriageRepo } from './triage.repo.js';

// Relevance moves a triage record's default priority one step (docs/product/triage.md, "Priority"), from the relevance
// the refresh keeps (features/relevance) for the record's own tenant. Each test has its own database.

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NOW = '2026-11-26T12:00:00Z';
const LIVE = { createdDate: new Date('2026-11-01T00:00:00Z'), endDate: new Date('2027-03-01T00:00:00Z') };

/** The tenant's usage as read: Teams `teams` of 1,000 licensed users active, Exchange 40 of 1,000 (Low). */
async function storeUsage(context: TestContext, tenantId: number, teams: number) {
  const day = '2026-11-24';
  const readings: UsageReading[] = [
    { workload: 'teams', reportDate: day, periodDays: 30, activeUsers: teams, licensedUsers: 1000 },
    { workload: 'exchange', reportDate: day, periodDays: 30, activeUsers: 40, licensedUsers: 1000 },
  ];
  const repo = createUsageRepo(context.database.db);
  await repo.store(tenantId, readings, context.clock.now(), '2025-01-01');
  await repo.setStatus(tenantId, { at: context.clock.now(), read: true, error: null, permissionMissing: false });
}

interface Read {
  priority: string;
  prioritySource: string;
  priorityReason: string;
}

async function setUp() {
  t = await createTestContext({}, { now: NOW });
  const db = t.database.db;
  const admin = (await signIn(t.app, db, { roles: ['Admin'] })).agent;
  const contoso = await insertTenant(db, { name: 'Contoso', visibility: 'public' });
  const read = async (path: string, tenant?: number): Promise<Read> => {
    const res = await admin.get(`/api/triage/${path}${tenant ? `?tenant=${tenant}` : ''}`);
    expect(res.status).toBe(200);
    const { priority, prioritySource, priorityReason } = res.body as Read;
    return { priority, prioritySource, priorityReason };
  };
  /** A post the tenants received, with its records opened as the sync opens them. */
  const post = async (externalId: string, fields: Parameters<typeof insertMessage>[1], tenants: number[]) => {
    const row = await insertMessage(db, { externalId, ...LIVE, ...fields });
    await receivedBy(db, row.id, tenants);
    await createTriageRepo(db).openRecords({ itemIds: [row.id] }, t!.clock.now());
    return row;
  };
  return { t, db, admin, contoso: contoso.id, read, post };
}

describe('relevance and the default priority', () => {
  it('High raises the default one step and Low lowers it; Medium, Unknown and the ends of the scale leave it', async () => {
    const { t, contoso, read, post } = await setUp();
    await post('MC950001', { products: ['Microsoft Teams'], isMajorChange: true }, [contoso]);
    await post('MC950002', { products: ['Exchange Online'], isMajorChange: true }, [contoso]);
    await post('MC950003', { products: ['Microsoft Teams'], severity: 'high' }, [contoso]);
    await post('MC950004', { products: ['Exchange Online'], category: 'stayInformed' }, [contoso]);
    await post('MC950005', { products: ['Microsoft Entra'], isMajorChange: true }, [contoso]);
    // Before relevance is known, each record has its source's priority.
    expect(await read('message-center/MC950001')).toEqual({ priority: 'medium', prioritySource: 'major_change', priorityReason: 'Major change' });

    await storeUsage(t, contoso, 950);
    await t.ctx.services.relevance.refreshTenant(contoso);
    expect(await read('message-center/MC950001')).toEqual({
      priority: 'high',
      prioritySource: 'major_change',
      priorityReason: 'Major change; raised: High relevance',
    });
    expect(await read('message-center/MC950002')).toEqual({
      priority: 'low',
      prioritySource: 'major_change',
      priorityReason: 'Major change; lowered: Low relevance',
    });
    // High stays High, Low stays Low: nothing moved, nothing said.
    expect(await read('message-center/MC950003')).toEqual({
      priority: 'high',
      prioritySource: 'high_severity',
      priorityReason: 'Microsoft marks it high severity',
    });
    expect(await read('message-center/MC950004')).toMatchObject({ priority: 'low', priorityReason: 'No action, severity or major-change signal' });
    // Microsoft Entra: no usage report covers it (Unknown).
    expect(await read('message-center/MC950005')).toMatchObject({ priority: 'medium', priorityReason: 'Major change' });
  });

  it('a record opened when the relevance is already known starts moved', async () => {
    const { t, db, contoso, read } = await setUp();
    await storeUsage(t, contoso, 950);
    const row = await insertMessage(db, { externalId: 'MC950011', ...LIVE, products: ['Microsoft Teams'], isMajorChange: true });
    await receivedBy(db, row.id, [contoso]);
    await t.ctx.services.relevance.refreshItems([row.id]);
    const repo = createTriageRepo(db);
    expect(await repo.openRecords({ itemIds: [row.id] }, t.clock.now())).toHaveLength(1);
    expect(await read('message-center/MC950011')).toMatchObject({ priority: 'high', priorityReason: 'Major change; raised: High relevance' });
  });

  it('follows a change of relevance, and never moves a priority a person or a rule set', async () => {
    const { t, admin, contoso, read, post } = await setUp();
    await post('MC950021', { products: ['Microsoft Teams'], isMajorChange: true }, [contoso]);
    await post('MC950022', { products: ['Microsoft Teams'], isMajorChange: true }, [contoso]);
    const ruled = await post('MC950023', { products: ['Microsoft Teams'], isMajorChange: true }, [contoso]);
    await t.database.pool.query(`UPDATE triage_records SET priority = 'low', priority_source = 'rule' WHERE item_id = $1`, [ruled.id]);
    expect((await admin.put('/api/triage/message-center/MC950022').send({ priority: 'low' })).status).toBe(200);

    await storeUsage(t, contoso, 950);
    await t.ctx.services.relevance.refreshTenant(contoso);
    expect(await read('message-center/MC950021')).toMatchObject({ priority: 'high' });
    expect(await read('message-center/MC950022')).toEqual({ priority: 'low', prioritySource: 'manual', priorityReason: 'Set by hand' });
    expect(await read('message-center/MC950023')).toEqual({ priority: 'low', prioritySource: 'rule', priorityReason: 'Set by a triage rule' });

    // A day later far fewer people use Teams: Low (20 of 1,000), so the default goes below the source's.
    t.clock.advance(24 * 3_600_000);
    await storeUsage(t, contoso, 20);
    await t.ctx.services.relevance.refreshTenant(contoso);
    expect(await read('message-center/MC950021')).toMatchObject({ priority: 'low', priorityReason: 'Major change; lowered: Low relevance' });
    expect(await read('message-center/MC950022')).toMatchObject({ priority: 'low', prioritySource: 'manual' });
    // Medium (200 of 1,000: 20 %) leaves the source's priority.
    await storeUsage(t, contoso, 200);
    await t.ctx.services.relevance.refreshTenant(contoso);
    expect(await read('message-center/MC950021')).toEqual({ priority: 'medium', prioritySource: 'major_change', priorityReason: 'Major change' });
    expect(await read('message-center/MC950023')).toMatchObject({ priority: 'low', prioritySource: 'rule' });
  });

  it('reset brings back the default as relevance moves it', async () => {
    const { t, admin, contoso, read, post } = await setUp();
    await post('MC950031', { products: ['Microsoft Teams'], isMajorChange: true }, [contoso]);
    await storeUsage(t, contoso, 950);
    await t.ctx.services.relevance.refreshTenant(contoso);
    expect((await admin.put('/api/triage/message-center/MC950031').send({ priority: 'low' })).body).toMatchObject({
      priority: 'low',
      prioritySource: 'manual',
    });
    const reset = await admin.put('/api/triage/message-center/MC950031').send({ reset: ['priority'] });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ priority: 'high', prioritySource: 'major_change', priorityReason: 'Major change; raised: High relevance' });
    expect(await read('message-center/MC950031')).toMatchObject({ priority: 'high' });
  });

  it('reads each record’s own tenant: a post two tenants received can be raised for one and lowered for the other', async () => {
    const { t, db, contoso, read, post } = await setUp();
    const fabrikam = (await insertTenant(db, { name: 'Fabrikam', visibility: 'public' })).id;
    await post('MC950041', { products: ['Microsoft Teams'], isMajorChange: true }, [contoso, fabrikam]);
    await storeUsage(t, contoso, 950);
    await storeUsage(t, fabrikam, 5);
    await t.ctx.services.relevance.refreshTenant(contoso);
    await t.ctx.services.relevance.refreshTenant(fabrikam);
    expect(await read('message-center/MC950041', contoso)).toMatchObject({ priority: 'high' });
    expect(await read('message-center/MC950041', fabrikam)).toMatchObject({ priority: 'low' });
  });

  it('a roadmap item’s record (no tenant) takes the highest level among the tenants; a disabled tenant counts for nothing', async () => {
    const { t, db, admin, contoso, read } = await setUp();
    const fabrikam = (await insertTenant(db, { name: 'Fabrikam', visibility: 'public' })).id;
    const roadmap = await insertRoadmapItem(db, { externalId: '495001', products: ['Microsoft Teams'], createdDate: new Date('2026-11-01T00:00:00Z') });
    await createTriageRepo(db).openRecords({ itemIds: [roadmap.id] }, t.clock.now(), 'request');
    await storeUsage(t, contoso, 950);
    await storeUsage(t, fabrikam, 5);
    await t.ctx.services.relevance.refreshTenant(contoso);
    await t.ctx.services.relevance.refreshTenant(fabrikam);
    // A roadmap item's source gives Low; High for Contoso raises it.
    expect(await read('roadmap/495001')).toEqual({
      priority: 'medium',
      prioritySource: 'no_signal',
      priorityReason: 'No action, severity or major-change signal; raised: High relevance',
    });
    // Contoso disabled: its relevance goes, and Fabrikam's Low is the highest left.
    expect((await admin.patch(`/api/admin/tenants/${contoso}`).send({ enabled: false })).status).toBe(200);
    expect(await read('roadmap/495001')).toMatchObject({ priority: 'low', priorityReason: 'No action, severity or major-change signal' });
    expect((await admin.patch(`/api/admin/tenants/${contoso}`).send({ enabled: true })).status).toBe(200);
    expect(await read('roadmap/495001')).toMatchObject({ priority: 'medium' });
  });
});
