import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { ListRelevance } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';
import { itemRelevance, type ItemRow } from '../../db/schema/index.js';

/**
 * The list's relevance (GET /api/unified/items): the filter, the "Relevant to us first" order and the page map, each
 * over the tenants the caller may see (or those of `tenants=`). The rows are written directly: what the list does
 * with them is the subject here, not how they are computed (relevance.refresh.test.ts).
 *
 * Contoso is public, Fabrikam private (nobody is given it), Northwind private and given to `granted`. Levels: 3 High,
 * 2 Medium, 1 Low, 0 Unknown. Newest first: teams (High Contoso), exchange (Medium Contoso, High Fabrikam), word (Low
 * Contoso, Medium Northwind), entra (Unknown Contoso), edge (no row); and two posts: one only Fabrikam received
 * (High, the newest item) and one Contoso and Fabrikam received (Low and High, the oldest).
 */
let t: TestContext;
let user: request.Agent;
let granted: request.Agent;
let admin: request.Agent;
const tenant = { contoso: 0, fabrikam: 0, northwind: 0 };
const item: Record<'teams' | 'exchange' | 'word' | 'entra' | 'edge' | 'post' | 'shared', ItemRow> = {} as never;
const uid = (row: ItemRow) => `${row.source}-${row.externalId}`;
const REASON = 'the reason';

beforeAll(async () => {
  t = await createTestContext();
  const db = t.database.db;
  tenant.contoso = (await insertTenant(db, { name: 'Contoso', visibility: 'public' })).id;
  tenant.fabrikam = (await insertTenant(db, { name: 'Fabrikam', visibility: 'private' })).id;
  tenant.northwind = (await insertTenant(db, { name: 'Northwind', visibility: 'private' })).id;
  const day = (d: number) => new Date(Date.UTC(2025, 5, d));
  item.teams = await insertRoadmapItem(db, { products: ['Microsoft Teams'], createdDate: day(6) });
  item.exchange = await insertRoadmapItem(db, { products: ['Exchange Online'], createdDate: day(5) });
  item.word = await insertRoadmapItem(db, { products: ['Word'], createdDate: day(4) });
  item.entra = await insertRoadmapItem(db, { products: ['Microsoft Entra'], createdDate: day(3) });
  item.edge = await insertRoadmapItem(db, { products: ['Microsoft Edge'], createdDate: day(2) });
  item.post = await insertMessage(db, { title: 'Fabrikam only', products: ['Microsoft Teams'], createdDate: day(7) });
  await receivedBy(db, item.post.id, [tenant.fabrikam]);
  item.shared = await insertMessage(db, { title: 'Shared post', products: ['Microsoft Teams'], createdDate: day(1) });
  await receivedBy(db, item.shared.id, [tenant.contoso, tenant.fabrikam]);
  const row = (it: ItemRow, tenantId: number, level: number, reason = REASON) => ({
    itemId: it.id,
    tenantId,
    level,
    reason: `${reason} (${level})`,
    computedAt: t.clock.now(),
  });
  await db
    .insert(itemRelevance)
    .values([
      row(item.teams, tenant.contoso, 3),
      row(item.exchange, tenant.contoso, 2),
      row(item.exchange, tenant.fabrikam, 3),
      row(item.word, tenant.contoso, 1),
      row(item.word, tenant.northwind, 2),
      row(item.entra, tenant.contoso, 0),
      row(item.post, tenant.fabrikam, 3),
      row(item.shared, tenant.contoso, 1),
      row(item.shared, tenant.fabrikam, 3),
    ]);
  user = (await signIn(t.app, db)).agent;
  const signedIn = await signIn(t.app, db);
  await grantTenant(db, signedIn.user.id, tenant.northwind);
  granted = signedIn.agent;
  admin = (await signIn(t.app, db, { roles: ['Admin'] })).agent;
});
afterAll(async () => {
  await t.close();
});

type ListBody = { items: { id: string }[]; total: number; relevance?: Record<string, ListRelevance> };
async function list(agent: request.Agent | ReturnType<typeof request>, query: string): Promise<ListBody> {
  const res = await agent.get(`/api/unified/items?${query}`);
  expect([res.status, res.body.error?.message]).toEqual([200, undefined]);
  return res.body as ListBody;
}
const ids = (body: ListBody) => body.items.map((i) => i.id);
const names = (body: ListBody) => ids(body).map((id) => Object.entries(item).find(([, row]) => uid(row) === id)?.[0]);

describe('the relevance filter', () => {
  it('lists the items High for one of the tenants the caller may see', async () => {
    expect(names(await list(user, 'relevance=high'))).toEqual(['teams']);
    expect(names(await list(admin, 'relevance=high'))).toEqual(['post', 'teams', 'exchange', 'shared']);
  });

  it('takes several levels', async () => {
    expect(names(await list(user, 'relevance=medium,low'))).toEqual(['exchange', 'word', 'shared']);
    expect(names(await list(granted, 'relevance=medium'))).toEqual(['exchange', 'word']);
  });

  it('reads only the tenants of `tenants=` when the list names some (whose posts it lists)', async () => {
    expect(names(await list(admin, `relevance=high&tenants=${tenant.fabrikam}`))).toEqual(['post', 'shared']);
    expect(names(await list(admin, `relevance=high&tenants=${tenant.contoso}`))).toEqual([]);
    expect(names(await list(admin, `relevance=low&tenants=${tenant.contoso}`))).toEqual(['shared']);
  });

  it('never counts a private tenant the caller was not given, even when named', async () => {
    const body = await list(user, `relevance=high&tenants=${tenant.fabrikam}`);
    expect([ids(body), body.total]).toEqual([[], 0]);
  });
});

describe('"Relevant to us first" (sortField=relevance)', () => {
  it('sorts by the highest level among the caller’s tenants, then newest, items without relevance last', async () => {
    expect(names(await list(user, 'sortField=relevance&sources=roadmap'))).toEqual(['teams', 'exchange', 'word', 'entra', 'edge']);
    // Fabrikam's High of exchange counts for the admin only; Northwind's Medium of word for those given it.
    expect(names(await list(admin, 'sortField=relevance'))).toEqual(['post', 'teams', 'exchange', 'shared', 'word', 'entra', 'edge']);
    expect(names(await list(user, 'sortField=relevance'))).toEqual(['teams', 'exchange', 'word', 'shared', 'entra', 'edge']);
    expect(names(await list(granted, 'sortField=relevance&sources=roadmap'))).toEqual(['teams', 'exchange', 'word', 'entra', 'edge']);
  });

  it('ascending: least relevant first, oldest first among equals, items without relevance still last', async () => {
    expect(names(await list(admin, 'sortField=relevance&sortDirection=asc'))).toEqual(['entra', 'word', 'shared', 'exchange', 'teams', 'post', 'edge']);
  });

  it('pages through the same order, one item a page', async () => {
    const pages: (string | undefined)[] = [];
    for (let page = 1; page <= 8; page++) pages.push(...names(await list(admin, `sortField=relevance&limit=1&page=${page}`)));
    expect(pages).toEqual(['post', 'teams', 'exchange', 'shared', 'word', 'entra', 'edge']);
  });

  it('walks its levels into the order a plain ORDER BY of every item gives (the export’s), both ways', async () => {
    const repo = t.ctx.services.itemList.repo;
    for (const sortDirection of ['desc', 'asc'] as const) {
      for (const tenantScope of ['all', { granted: [tenant.northwind] }] as const) {
        const q = { sortField: 'relevance' as const, sortDirection, tenantScope };
        const exported: string[] = [];
        for await (const batch of repo.streamAll(q, t.clock.now())) exported.push(...batch.map((r) => `${r.source}-${r.externalId}`));
        const paged: string[] = [];
        for (let page = 1; page <= 4; page++)
          paged.push(...(await repo.list({ ...q, page, limit: 2 }, t.clock.now())).rows.map((r) => `${r.source}-${r.externalId}`));
        expect(paged).toEqual(exported);
      }
    }
  });

  it('with a filter, keeps only the items of its levels in the same order', async () => {
    expect(names(await list(admin, 'sortField=relevance&relevance=medium,unknown'))).toEqual(['exchange', 'word', 'entra']);
  });

  it('ranks a search first, the relevance order breaking ties', async () => {
    expect(names(await list(user, 'sortField=relevance&search=feature'))).toEqual(['teams', 'exchange', 'word', 'entra', 'edge']);
  });
});

describe('the page map', () => {
  it('gives each item its highest level among the caller’s tenants, with the tenant and its reason', async () => {
    const body = await list(granted, 'sources=roadmap');
    expect(body.relevance).toEqual({
      [uid(item.teams)]: { level: 'high', tenantId: tenant.contoso, reason: `${REASON} (3)` },
      [uid(item.exchange)]: { level: 'medium', tenantId: tenant.contoso, reason: `${REASON} (2)` },
      [uid(item.word)]: { level: 'medium', tenantId: tenant.northwind, reason: `${REASON} (2)` },
      [uid(item.entra)]: { level: 'unknown', tenantId: tenant.contoso, reason: `${REASON} (0)` },
    });
  });

  it('never names a private tenant the caller was not given', async () => {
    const body = await list(user, '');
    expect(body.relevance?.[uid(item.exchange)]).toEqual({ level: 'medium', tenantId: tenant.contoso, reason: `${REASON} (2)` });
    expect(body.relevance?.[uid(item.word)]).toMatchObject({ level: 'low', tenantId: tenant.contoso });
    expect(body.relevance?.[uid(item.shared)]).toMatchObject({ level: 'low', tenantId: tenant.contoso });
    expect(JSON.stringify(body)).not.toContain('Fabrikam only');
    expect(Object.values(body.relevance ?? {}).map((r) => r.tenantId)).not.toContain(tenant.fabrikam);
  });

  it('follows `tenants=`', async () => {
    expect((await list(admin, `tenants=${tenant.fabrikam}`)).relevance).toEqual({
      [uid(item.post)]: { level: 'high', tenantId: tenant.fabrikam, reason: `${REASON} (3)` },
      [uid(item.shared)]: { level: 'high', tenantId: tenant.fabrikam, reason: `${REASON} (3)` },
    });
    expect((await list(admin, `tenants=${tenant.contoso}`)).relevance).toEqual({
      [uid(item.shared)]: { level: 'low', tenantId: tenant.contoso, reason: `${REASON} (1)` },
    });
  });
});

describe('a guest', () => {
  it('gets no relevance in the list', async () => {
    const body = await list(request(t.app), '');
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.relevance).toBeUndefined();
  });

  it('may not filter or sort by relevance', async () => {
    for (const query of ['relevance=high', 'sortField=relevance']) {
      const res = await request(t.app).get(`/api/unified/items?${query}`);
      expect([query, res.status, res.body.error.message]).toEqual([query, 401, 'Sign in to filter or sort by relevance']);
    }
  });
});

describe('GET /api/relevance/{itemType}/{itemId}', () => {
  type DialogBody = { tenants: { tenantName: string; level: string; reason: string; tenantId: number }[] };
  const dialog = async (agent: request.Agent, path: string) => {
    const res = await agent.get(`/api/relevance/${path}`);
    expect(res.status).toBe(200);
    return (res.body as DialogBody).tenants.map((r) => `${r.tenantName}: ${r.level}`);
  };

  it('answers one line per tenant the caller may see, most relevant first, with all it knows', async () => {
    const res = await admin.get(`/api/relevance/roadmap/${item.exchange.externalId}`);
    expect(res.body).toEqual({
      tenants: [
        {
          level: 'high',
          tenantId: tenant.fabrikam,
          tenantName: 'Fabrikam',
          reason: `${REASON} (3)`,
          workload: null,
          activeUsers: null,
          share: null,
          computedAt: t.clock.now().toISOString(),
        },
        expect.objectContaining({ level: 'medium', tenantId: tenant.contoso, tenantName: 'Contoso' }),
      ],
    });
    expect(await dialog(granted, `roadmap/${item.word.externalId}`)).toEqual(['Northwind: medium', 'Contoso: low']);
  });

  it('never names a private tenant the caller was not given', async () => {
    expect(await dialog(user, `roadmap/${item.exchange.externalId}`)).toEqual(['Contoso: medium']);
    expect(await dialog(user, `message-center/${item.shared.externalId}`)).toEqual(['Contoso: low']);
  });

  it('answers a post only a private tenant received as it answers an id that does not exist', async () => {
    const hidden = await user.get(`/api/relevance/message-center/${item.post.externalId}`);
    const unknown = await user.get('/api/relevance/message-center/MC7399999');
    expect([hidden.status, hidden.body.error.message.replace(item.post.externalId, '<id>')]).toEqual([
      unknown.status,
      unknown.body.error.message.replace('MC7399999', '<id>'),
    ]);
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain('Fabrikam');
  });

  it('answers an item without relevance with no tenant, and refuses a guest', async () => {
    expect(await dialog(admin, `roadmap/${item.edge.externalId}`)).toEqual([]);
    expect((await request(t.app).get(`/api/relevance/roadmap/${item.teams.externalId}`)).status).toBe(401);
  });
});
