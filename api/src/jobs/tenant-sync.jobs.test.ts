import { afterEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../test/context.js';
import { createTestJobRunner } from '../../test/jobs.js';
import { readFixture } from '../../test/replay-server.js';
import { startTenantGraphServer, type TenantGraphServer } from '../../test/tenant-graph-server.js';
import type { JobRunner } from './agenda.js';
import { scheduleTenantJobs, staggerOffsetMs, TENANT_SYNC_JOB } from './tenant-sync.jobs.js';
import { createTenantsService } from '../features/tenants/tenants.service.js';

// Each test has its own database, local Graph and job runner.
const CLIENT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
let t: TestContext | undefined;
let runner: JobRunner | undefined;
let graph: TenantGraphServer | undefined;
afterEach(async () => {
  await runner?.stop();
  await graph?.close();
  await t?.close();
  runner = graph = t = undefined;
});

async function setUp() {
  const messages = JSON.parse(readFixture('messages-a.json')) as unknown[];
  graph = await startTenantGraphServer(ids.map((directoryId) => ({ directoryId, clientId: CLIENT, secret: 's', messages })));
  t = await createTestContext({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url });
  const service = createTenantsService(t.ctx);
  const added = [];
  for (const [i, directoryId] of ids.entries())
    added.push(await service.create({ name: `Tenant ${i + 1}`, tenantId: directoryId, clientId: CLIENT, clientSecret: 's', enabled: i < 2 }));
  runner = createTestJobRunner(t);
  return { service, added };
}

const jobsOf = async (r: JobRunner) =>
  (await r.agenda.queryJobs({ name: TENANT_SYNC_JOB })).jobs.map((j) => ({ tenantId: (j.data as { tenantId: number }).tenantId, nextRunAt: j.nextRunAt }));

describe('tenant sync jobs', () => {
  it('spread the tenants over the interval', () => {
    const hour = 3_600_000;
    const offsets = Array.from({ length: 200 }, (_, i) => staggerOffsetMs(i + 1, hour));
    expect(offsets.every((o) => o >= 0 && o < hour)).toBe(true);
    // Every 6-minute tenth of the hour holds between 15 and 25 of 200 tenants.
    const perTenth = Array.from({ length: 10 }, (_, k) => offsets.filter((o) => Math.floor(o / (hour / 10)) === k).length);
    expect(Math.min(...perTenth)).toBeGreaterThanOrEqual(15);
    expect(Math.max(...perTenth)).toBeLessThanOrEqual(25);
  });

  it('keep one staggered job per enabled tenant, in step with the tenants, and run a tenant’s sync', async () => {
    const { service, added } = await setUp();
    const [one, two, three] = added;
    const ctx = t!.ctx;
    expect(await scheduleTenantJobs(runner!.agenda, ctx)).toEqual({ added: [one!.id, two!.id], removed: [] });
    const now = ctx.clock.now().getTime();
    const jobs = await jobsOf(runner!);
    expect(jobs.map((j) => j.tenantId).sort()).toEqual([one!.id, two!.id]);
    for (const job of jobs) expect(job.nextRunAt?.getTime()).toBe(now + staggerOffsetMs(job.tenantId, ctx.config.MESSAGE_SYNC_INTERVAL_MS));
    // Nothing changes when nothing changed; a disabled tenant loses its job, an enabled one gets one.
    expect(await scheduleTenantJobs(runner!.agenda, ctx)).toEqual({ added: [], removed: [] });
    await service.update(one!.id, { enabled: false });
    await service.update(three!.id, { enabled: true });
    expect(await scheduleTenantJobs(runner!.agenda, ctx)).toEqual({ added: [three!.id], removed: [one!.id] });
    expect((await jobsOf(runner!)).map((j) => j.tenantId).sort()).toEqual([two!.id, three!.id]);

    // The job reads its tenant's Message Center.
    await runner!.start();
    await runner!.agenda.now(TENANT_SYNC_JOB, { tenantId: two!.id });
    const deadline = Date.now() + 15_000;
    let status: string | undefined;
    while (Date.now() < deadline && status !== 'success') {
      const { rows } = await t!.database.pool.query<{ status: string }>(`SELECT status FROM sync_history WHERE tenant_id = $1 ORDER BY id DESC LIMIT 1`, [
        two!.id,
      ]);
      status = rows[0]?.status;
      if (status !== 'success') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('success');
    expect(graph!.requests).toContain(`${ids[1]} GET /messages?page=1`);
    expect(graph!.requests.some((r) => r.startsWith(ids[0]!))).toBe(false);
  });
});
