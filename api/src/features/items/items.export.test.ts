import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { insertTenant } from '../../../test/tenant-fixtures.js';
import { itemRelevance } from '../../db/schema/index.js';

let t: TestContext;
const BULK = 2100; // more than two export batches of 1000

/** Our export read back with csv-parse (RFC 4180: quoted fields, doubled quotes, CRLF). */
const parseCsv = (text: string): string[][] => parse(text, { relaxColumnCount: true });

async function exportCsv(query: Record<string, string> = {}, agent: request.Agent | ReturnType<typeof request> = request(t.app)) {
  const res = await agent
    .get('/api/dashboard/export')
    .query(query)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  return { res, bytes: res.body as Buffer };
}

beforeAll(async () => {
  t = await createTestContext({}, { now: '2026-02-07T12:00:00Z' });
  await t.database.pool.query(
    `INSERT INTO items (source, external_id, title, description, status, products, tags, created_date, modified_date, content_hash)
     SELECT 'roadmap', (600000 + g)::text, 'Bulk item ' || g, 'Bulk description ' || g, 'Launched', ARRAY['Planner'], ARRAY['Web'],
            timestamptz '2024-01-01' + g * interval '1 minute', timestamptz '2024-01-01' + g * interval '1 minute', 'bulk-' || g
     FROM generate_series(1, ${BULK}) AS g`,
  );
  await insertRoadmapItem(t.database.db, {
    externalId: '700001',
    title: 'Title with "quotes", commas, and\nnew lines',
    description: '<div>Line one<br>Line two &amp; <b>bold</b></div>',
    status: 'In development',
    products: ['Microsoft Teams', 'Outlook'],
    releaseDate: 'April CY2026',
    previewDate: 'March CY2026',
    gaMoves: 2,
    gaShiftMonths: -1,
    previewMoves: 1,
    previewShiftMonths: 2,
    releaseMovedAt: new Date('2026-02-05T00:00:00Z'),
    createdDate: new Date('2026-02-01T08:30:00Z'),
    modifiedDate: new Date('2026-02-02T09:45:10Z'),
  });
  await insertRoadmapItem(t.database.db, {
    externalId: '700002',
    title: '=HYPERLINK("http://evil.example","click")',
    description: '+SUM(A1:A2)',
    status: '-1',
    products: ['@SUM(1)'],
    createdDate: new Date('2026-01-31T00:00:00Z'),
  });
  await insertMessage(t.database.db, {
    externalId: 'MC1000269',
    title: 'Teams: emoji shortcut',
    summary: '\tTab-led summary',
    tags: ['New feature', 'User impact'],
    products: ['Microsoft Teams'],
    createdDate: new Date('2026-01-30T00:00:00Z'),
    modifiedDate: new Date('2026-01-30T02:00:00Z'),
  });
  await insertRoadmapItem(t.database.db, { externalId: '700003', title: 'Removed', isRemoved: true, removedAt: new Date('2026-02-06T00:40:00Z') });
});

const HEADER = [
  'ID',
  'Source',
  'Title',
  'Status',
  'Product/Service',
  'Tags',
  'Release Date',
  'Release Date Moves',
  'Release Date Shift (months)',
  'Preview Date',
  'Preview Date Moves',
  'Preview Date Shift (months)',
  'Dates Last Moved',
  'Timing of Change',
  'Rollout Windows',
  'Rollout Moves',
  'Product Families',
  'Tenants',
  'Created',
  'Last Modified',
  'Removed/Expired',
  'Link',
  'Summary/Description',
];
/** A data row as { column: value }. */
const byColumn = (row: string[]) => Object.fromEntries(HEADER.map((h, i) => [h, row[i]]));
afterAll(async () => {
  await t.close();
});

describe('GET /api/dashboard/export', () => {
  it('streams every matching row (not one page) as CSV with a BOM, header and dated file name', async () => {
    const { res, bytes } = await exportCsv();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="microsoft-365-dashboard-2026-02-07.csv"');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.toString('utf8').slice(1));
    expect(rows[0]).toEqual(HEADER);
    expect(rows).toHaveLength(1 + BULK + 3);
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(BULK + 3);
    expect(rows.some((r) => r[0] === '700003')).toBe(false);
    // Default list order: newest created first.
    expect(rows.slice(1, 4).map((r) => r[0])).toEqual(['700001', '700002', 'MC1000269']);
    // The list's total matches the export's row count.
    const list = await request(t.app).get('/api/unified/items');
    expect(list.body.total).toBe(rows.length - 1);
  });

  it('escapes quotes, commas and new lines (RFC 4180) and writes plain text descriptions', async () => {
    const { bytes } = await exportCsv({ search: '700001' });
    const text = bytes.toString('utf8');
    expect(text).toContain('"Title with ""quotes"", commas, and\nnew lines"');
    expect(text.endsWith('\r\n')).toBe(true);
    const [, row] = parseCsv(text.slice(1));
    expect(row).toEqual([
      '700001',
      'Roadmap',
      'Title with "quotes", commas, and\nnew lines',
      'In development',
      'Microsoft Teams, Outlook',
      'Worldwide (Standard Multi-Tenant), Web, Microsoft Teams, General Availability',
      'April CY2026',
      '2',
      // A negative shift stays a number (our own integers get no formula guard).
      '-1',
      'March CY2026',
      '1',
      '2',
      '2026-02-05 00:00:00',
      // Timing, rollout windows and moves, product families: written by the sync (this row was inserted directly).
      '',
      '',
      '',
      '',
      // Tenants: a roadmap item has none.
      '',
      '2026-02-01 08:30:00',
      '2026-02-02 09:45:10',
      '',
      'https://www.microsoft.com/microsoft-365/roadmap?id=700001',
      'Line one\nLine two & bold',
    ]);
  });

  it('neutralises spreadsheet formulas (= + - @ tab)', async () => {
    const { bytes } = await exportCsv({ search: '700002' });
    const [, row] = parseCsv(bytes.toString('utf8').slice(1));
    const cells = byColumn(row!);
    expect(cells.Title).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(cells.Status).toBe(`'-1`);
    expect(cells['Product/Service']).toBe(`'@SUM(1)`);
    expect(cells['Summary/Description']).toBe(`'+SUM(A1:A2)`);
    const msg = byColumn(parseCsv((await exportCsv({ sources: 'messages' })).bytes.toString('utf8').slice(1))[1]!);
    expect(msg.ID).toBe('MC1000269');
    expect(msg.Source).toBe('Message Center');
    expect(msg.Link).toBe('https://admin.microsoft.com/Adminportal/Home#/MessageCenter/:/messages/MC1000269');
    expect(msg['Summary/Description']).toBe('Tab-led summary');
    // Date slips are a roadmap matter: blank, not 0, for messages.
    expect([msg['Release Date Moves'], msg['Release Date Shift (months)'], msg['Preview Date Moves']]).toEqual(['', '', '']);
  });

  it('exports the archive with includeRemoved (dated) and only then', async () => {
    const archive = parseCsv((await exportCsv({ includeRemoved: 'true', search: 'Removed' })).bytes.toString('utf8').slice(1));
    expect(
      archive
        .slice(1)
        .map((r) => byColumn(r))
        .map((r) => [r.ID, r['Removed/Expired']]),
    ).toEqual([['700003', '2026-02-06 00:40:00']]);
    const plain = parseCsv((await exportCsv({ search: 'Removed' })).bytes.toString('utf8').slice(1));
    expect(plain).toHaveLength(1);
  });

  it('filters and sorts by date slips like the list', async () => {
    const moved = parseCsv((await exportCsv({ releaseMoved: '7days' })).bytes.toString('utf8').slice(1));
    expect(moved.slice(1).map((r) => r[0])).toEqual(['700001']);
    const slipped = parseCsv((await exportCsv({ sortField: 'releaseMoves' })).bytes.toString('utf8').slice(1));
    expect(slipped[1]![0]).toBe('700001');
  });

  it('applies the list filters and validates them', async () => {
    const { bytes } = await exportCsv({ products: 'Microsoft Teams' });
    const rows = parseCsv(bytes.toString('utf8').slice(1));
    expect(rows.slice(1).map((r) => r[0])).toEqual(['700001', 'MC1000269']);
    const empty = parseCsv((await exportCsv({ search: 'no-such-words-anywhere' })).bytes.toString('utf8').slice(1));
    expect(empty).toHaveLength(1);
    const bad = await request(t.app).get('/api/dashboard/export').query({ sortField: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('sortField');
  });

  it('leaves the pool healthy after a client abandons a download', async () => {
    const server = t.app.listen(0);
    const port = (server.address() as import('node:net').AddressInfo).port;
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/dashboard/export`, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await new Promise((r) => setTimeout(r, 200));
    const after = await fetch(`http://127.0.0.1:${port}/api/unified/items?limit=1`);
    expect(after.status).toBe(200);
    expect(t.database.pool.totalCount - t.database.pool.idleCount).toBe(0);
    await new Promise<void>((r) => server.close(() => r()));
  });
});

describe('GET /api/dashboard/export: relevance', () => {
  /**
   * Contoso is public, Fabrikam private (only the admin sees it). 700001: High for Contoso, Low for Fabrikam; 700002:
   * Medium for Contoso, High for Fabrikam; the oldest bulk item (the third batch of 1,000): Low for Contoso; the post
   * and every other item: none.
   */
  let user: request.Agent;
  let admin: request.Agent;
  const REASON = {
    teams: '1,240 people used Teams in the last 30 days, 82 % of licensed users',
    teamsFabrikam: '3 people used Teams in the last 30 days, under 1 % of licensed users',
    outlook: '60 people used Outlook in the last 30 days, 12 % of licensed users',
    outlookFabrikam: '900 people used Outlook in the last 30 days, 90 % of licensed users',
    planner: 'Not licensed: the tenant has no plan that includes Planner',
  };
  const MEMBER_HEADER = [...HEADER, 'Relevance', 'Relevance Reason', 'State', 'Owner', 'Due', 'Priority'];
  const memberRows = (bytes: Buffer) => {
    const [header, ...rows] = parseCsv(bytes.toString('utf8').slice(1));
    expect(header).toEqual(MEMBER_HEADER);
    return rows.map((row) => Object.fromEntries(MEMBER_HEADER.map((h, i) => [h, row[i]])));
  };
  const relevanceOf = (row: Record<string, string | undefined>) => [row.ID, row.Relevance, row['Relevance Reason']];

  beforeAll(async () => {
    const db = t.database.db;
    const contoso = (await insertTenant(db, { name: 'Contoso', visibility: 'public' })).id;
    const fabrikam = (await insertTenant(db, { name: 'Fabrikam', visibility: 'private' })).id;
    const { rows } = await t.database.pool.query<{ id: number; external_id: string }>(
      `SELECT id, external_id FROM items WHERE external_id IN ('700001', '700002', '600001')`,
    );
    const id = (externalId: string) => rows.find((r) => r.external_id === externalId)!.id;
    const row = (itemId: number, tenantId: number, level: number, reason: string) => ({ itemId, tenantId, level, reason, computedAt: t.clock.now() });
    await db
      .insert(itemRelevance)
      .values([
        row(id('700001'), contoso, 3, REASON.teams),
        row(id('700001'), fabrikam, 1, REASON.teamsFabrikam),
        row(id('700002'), contoso, 2, REASON.outlook),
        row(id('700002'), fabrikam, 3, REASON.outlookFabrikam),
        row(id('600001'), contoso, 1, REASON.planner),
      ]);
    user = (await signIn(t.app, db)).agent;
    admin = (await signIn(t.app, db, { roles: ['Admin'] })).agent;
  });

  it('adds Relevance and Relevance Reason for a signed-in caller, blank where an item has none, in every batch', async () => {
    const rows = memberRows((await exportCsv({}, user)).bytes);
    expect(rows).toHaveLength(BULK + 3);
    expect(rows.slice(0, 3).map(relevanceOf)).toEqual([
      // One tenant to see (Contoso): the reason alone. Fabrikam's levels are not the user's to know.
      ['700001', 'High', REASON.teams],
      ['700002', 'Medium', REASON.outlook],
      ['MC1000269', '', ''],
    ]);
    // The oldest item comes in the third batch of rows: its relevance is read with that batch.
    expect(relevanceOf(rows.at(-1)!)).toEqual(['600001', 'Low', REASON.planner]);
    expect(relevanceOf(rows.at(-2)!)).toEqual(['600002', '', '']);
    expect(rows.filter((r) => r.Relevance).map((r) => r.ID)).toEqual(['700001', '700002', '600001']);
  });

  it('keeps only the items of the relevance filter, each at its highest level among the tenants in scope', async () => {
    expect(memberRows((await exportCsv({ relevance: 'high' }, user)).bytes).map(relevanceOf)).toEqual([['700001', 'High', REASON.teams]]);
    // The admin sees both tenants: each reason names the tenant whose level it is.
    expect(memberRows((await exportCsv({ relevance: 'high' }, admin)).bytes).map(relevanceOf)).toEqual([
      ['700001', 'High', `Contoso: ${REASON.teams}`],
      ['700002', 'High', `Fabrikam: ${REASON.outlookFabrikam}`],
    ]);
    expect(memberRows((await exportCsv({ relevance: 'low,medium' }, user)).bytes).map(relevanceOf)).toEqual([
      ['700002', 'Medium', REASON.outlook],
      ['600001', 'Low', REASON.planner],
    ]);
  });

  it('sorts "Relevant to us first" like the list, items without relevance last', async () => {
    const rows = memberRows((await exportCsv({ sortField: 'relevance' }, user)).bytes);
    expect(rows.slice(0, 4).map(relevanceOf)).toEqual([
      ['700001', 'High', REASON.teams],
      ['700002', 'Medium', REASON.outlook],
      ['600001', 'Low', REASON.planner],
      // Then the items without relevance, newest first.
      ['MC1000269', '', ''],
    ]);
    expect(rows).toHaveLength(BULK + 3);
    const admins = memberRows((await exportCsv({ sortField: 'relevance', sortDirection: 'asc' }, admin)).bytes);
    // Ascending: least relevant first (Low, then the two High items oldest first), those without relevance still last
    // (oldest first).
    expect(admins.slice(0, 4).map((r) => r.ID)).toEqual(['600001', '700002', '700001', '600002']);
    expect(admins.at(-1)!.ID).toBe('MC1000269');
  });

  it('gives a guest no relevance columns and refuses a guest the relevance filter and order', async () => {
    const guest = parseCsv((await exportCsv()).bytes.toString('utf8').slice(1));
    expect(guest[0]).toEqual(HEADER);
    expect(guest.map((row) => row.join(',')).join('\n')).not.toContain('people used');
    for (const query of [{ relevance: 'high' }, { sortField: 'relevance' }]) {
      const res = await request(t.app).get('/api/dashboard/export').query(query);
      expect([res.status, res.body.error.message]).toEqual([401, 'Sign in to filter or sort by relevance']);
    }
  });

  it('refuses a level that does not exist, naming the field', async () => {
    const res = await user.get('/api/dashboard/export').query({ relevance: 'urgent' });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('relevance.0');
    expect(res.body.error.message).toContain('relevance must be one of high, medium, low, unknown');
  });
});
