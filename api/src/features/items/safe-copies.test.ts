import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { ItemListResponse, UnifiedItem } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem } from '../../../test/factories.js';
import { SAFE_COPY_MIN_CHARS, SANITIZE_VERSION, sanitizeForOutput } from '../../lib/html.js';
import { sql } from 'drizzle-orm';
import { runSql } from './items.repo.js';
import { remakeSafeCopies } from '../sync/derived-fields.repo.js';
import { toUnifiedItem, unifiedItemAnswerSql, unifiedItemSelectSql, unifiedItemStoredTextSql, type UnifiedItemRow } from './item-mapper.js';

/**
 * Items keep their text as it is sent out beside the text as the provider sent it: the answer takes the copy when it
 * is of the policy in force, and sanitises the stored text otherwise, so a missing, old or stale copy is never sent.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** A long body (long bodies get a copy) with what the policy removes. */
const HOSTILE =
  '<p onclick="x()">Body <script>alert(1)</script><a href="javascript:x()">js</a> <a href="https://learn.microsoft.com">docs</a></p>' +
  '<p>Admins can turn the feature on in the Teams admin center before the rollout begins.</p>'.repeat(30);

async function answered(externalId: string): Promise<UnifiedItem> {
  const res = await request(t.app).get(`/api/unified/items?search=${encodeURIComponent(externalId)}&includeRemoved=true`);
  expect(res.status).toBe(200);
  const item = (res.body as ItemListResponse).items.find((i) => (i.messageId ?? i.itemId) === externalId);
  if (!item) throw new Error(`${externalId} not answered`);
  return item;
}
async function stored(id: number) {
  const { rows } = await t.database.pool.query<{ safe_version: number; body_safe: string | null; description_safe: string | null }>(
    'SELECT safe_version, body_safe, description_safe FROM items WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

describe('sanitised copies of item text', () => {
  it('are made at start for rows without them, once, and answered the same as sanitising on the way out', async () => {
    const post = await insertMessage(t.ctx.db, { externalId: 'MC2000001', bodyHtml: HOSTILE });
    const html = await insertRoadmapItem(t.ctx.db, { externalId: '700001', description: 'Roadmap <b>text</b><img src="x" onerror="y()">' });
    const plain = await insertRoadmapItem(t.ctx.db, { externalId: '700002', description: 'Plain text & more < less' });
    // No copies yet (written without them): sanitised as sent.
    expect((await stored(post.id)).safe_version).toBe(0);
    const before = [await answered('MC2000001'), await answered('700001'), await answered('700002')];
    expect(before[0]!.bodyContent).toBe(sanitizeForOutput(HOSTILE));
    expect(before[0]!.bodyContent).not.toMatch(/script|onclick|javascript/);

    expect(await remakeSafeCopies(t.ctx.db)).toBeGreaterThanOrEqual(3);
    expect(await stored(post.id)).toEqual({ safe_version: SANITIZE_VERSION, body_safe: sanitizeForOutput(HOSTILE), description_safe: null });
    expect((await stored(html.id)).description_safe).toBe('Roadmap <b>text</b><img src="x" />');
    // A plain description has no copy: it is sent as stored.
    expect(await stored(plain.id)).toEqual({ safe_version: SANITIZE_VERSION, body_safe: null, description_safe: null });
    expect([await answered('MC2000001'), await answered('700001'), await answered('700002')]).toEqual(before);
    // Nothing left to make.
    expect(await remakeSafeCopies(t.ctx.db)).toBe(0);
  });

  it('stop being made once a shutdown aborts the start-up scan, and the next start makes them', async () => {
    const post = await insertMessage(t.ctx.db, { externalId: 'MC2000009', bodyHtml: HOSTILE });
    const stopped = new AbortController();
    stopped.abort();
    expect(await remakeSafeCopies(t.ctx.db, undefined, stopped.signal)).toBe(0);
    expect((await stored(post.id)).safe_version).toBe(0);
    expect(await remakeSafeCopies(t.ctx.db)).toBeGreaterThanOrEqual(1);
    expect((await stored(post.id)).safe_version).toBe(SANITIZE_VERSION);
  });

  it('are not kept for a short body, which is sanitised as it is sent', async () => {
    const short = '<p onclick="x()">Short <script>alert(1)</script>body</p>';
    expect(short.length).toBeLessThan(SAFE_COPY_MIN_CHARS);
    expect(HOSTILE.length).toBeGreaterThanOrEqual(SAFE_COPY_MIN_CHARS);
    const post = await insertMessage(t.ctx.db, { externalId: 'MC2000004', bodyHtml: short });
    await remakeSafeCopies(t.ctx.db);
    expect(await stored(post.id)).toEqual({ safe_version: SANITIZE_VERSION, body_safe: null, description_safe: null });
    expect((await answered('MC2000004')).bodyContent).toBe('<p>Short body</p>');
  });

  it('are what the answer sends while they are of the current policy', async () => {
    const post = await insertMessage(t.ctx.db, { externalId: 'MC2000002', bodyHtml: HOSTILE });
    await remakeSafeCopies(t.ctx.db);
    // A copy the answer could only send by reading it (it is not what sanitising the stored body gives).
    await t.database.pool.query(`UPDATE items SET body_safe = '<p>the stored copy</p>' WHERE id = $1`, [post.id]);
    expect((await answered('MC2000002')).bodyContent).toBe('<p>the stored copy</p>');
    // Of another policy version: never sent.
    await t.database.pool.query('UPDATE items SET safe_version = $2 WHERE id = $1', [post.id, SANITIZE_VERSION + 1]);
    expect((await answered('MC2000002')).bodyContent).toBe(sanitizeForOutput(HOSTILE));
  });

  it('go out of date when the text is written without new copies, and are then never sent', async () => {
    const first = '<p>first body</p>'.repeat(200);
    const post = await insertMessage(t.ctx.db, { externalId: 'MC2000003', bodyHtml: first });
    await remakeSafeCopies(t.ctx.db);
    expect((await stored(post.id)).body_safe).toBe(first);
    expect((await answered('MC2000003')).bodyContent).toBe(first);
    await t.database.pool.query(`UPDATE items SET body_html = $2 WHERE id = $1`, [post.id, HOSTILE]);
    expect((await stored(post.id)).safe_version).toBe(0);
    expect((await answered('MC2000003')).bodyContent).toBe(sanitizeForOutput(HOSTILE));
    // A write of new text that leaves the copies as they were (a body whose sanitised form did not change) marks
    // them out of date too: their fingerprint no longer names the text.
    await remakeSafeCopies(t.ctx.db);
    await t.database.pool.query(`UPDATE items SET body_html = $2 WHERE id = $1`, [post.id, HOSTILE.replace('alert(1)', 'alert(2)')]);
    expect((await stored(post.id)).safe_version).toBe(0);
    // Written with its copies and their fingerprint (as the sync does): kept.
    await t.database.pool.query(
      `UPDATE items SET body_html = '<p>third</p>', body_safe = '<p>third</p>', safe_version = $2, safe_source = md5('') || md5('<p>third</p>') WHERE id = $1`,
      [post.id, SANITIZE_VERSION],
    );
    expect((await stored(post.id)).safe_version).toBe(SANITIZE_VERSION);
    expect((await answered('MC2000003')).bodyContent).toBe('<p>third</p>');
  });

  it('are sent, or the stored text sanitised, whichever set of columns the row was read with', async () => {
    const post = await insertMessage(t.ctx.db, { externalId: 'MC2000005', bodyHtml: HOSTILE });
    const html = await insertRoadmapItem(t.ctx.db, { externalId: '700005', description: 'Roadmap <b>text</b><img src="x" onerror="y()">' });
    await remakeSafeCopies(t.ctx.db);
    const columnSets = { all: unifiedItemSelectSql, answer: unifiedItemAnswerSql, storedText: unifiedItemStoredTextSql };
    for (const [name, columns] of Object.entries(columnSets)) {
      const rows = await runSql<UnifiedItemRow>(
        t.database.pool,
        sql`SELECT ${columns} FROM items WHERE items.id IN (${post.id}, ${html.id}) ORDER BY items.id`,
      );
      const [body, description] = rows.map((row) => toUnifiedItem(row, { includeNotes: false }));
      expect({ name, body: body!.bodyContent, description: description!.description }).toEqual({
        name,
        body: sanitizeForOutput(HOSTILE),
        description: 'Roadmap <b>text</b><img src="x" />',
      });
    }
    // The answer's columns leave out the stored body its copy replaces; the stored text's leave out the copies.
    const [answer] = await runSql<UnifiedItemRow>(t.database.pool, sql`SELECT ${unifiedItemAnswerSql} FROM items WHERE items.id = ${post.id}`);
    expect(answer!.bodyHtml).toBeNull();
    const [storedText] = await runSql<UnifiedItemRow>(t.database.pool, sql`SELECT ${unifiedItemStoredTextSql} FROM items WHERE items.id = ${post.id}`);
    expect({ body: storedText!.bodyHtml, copy: storedText!.bodySafe, version: storedText!.safeVersion }).toEqual({ body: HOSTILE, copy: null, version: 0 });
  });
});
