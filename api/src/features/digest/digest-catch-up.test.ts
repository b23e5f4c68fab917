import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { digestSubscribers, mailOutbox } from '../../db/schema/index.js';
import { createServices } from '../../services.js';
import { createDigestService } from './digest.service.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createTestJobRunner } from '../../../test/jobs.js';
import { insertRoadmapItem } from '../../../test/factories.js';

/**
 * Weekly digest after downtime: a Sunday missed while the process was down is sent when it comes back in
 * the same week; a run that fails halfway is resumed; every subscriber gets exactly one digest a week, also when two
 * processes run the job at once.
 */
let t: TestContext;
const SUBSCRIBERS = 6;

beforeAll(async () => {
  t = await createTestContext({}, { now: '2026-02-10T10:00:00Z' });
  await insertRoadmapItem(t.ctx.db, { externalId: '710001', title: 'New this week', createdDate: new Date('2026-02-05T00:00:00Z') });
  await t.ctx.db
    .insert(digestSubscribers)
    .values(
      Array.from({ length: SUBSCRIBERS }, (_, i) => ({ email: `reader${i + 1}@example.com`, origin: 'signup', confirmedAt: new Date('2026-02-01T00:00:00Z') })),
    );
});
afterAll(() => t.close());

async function digestsOfWeek(weekStart: string) {
  const rows = await t.ctx.db
    .select({ to: mailOutbox.toAddress })
    .from(mailOutbox)
    .where(sql`${mailOutbox.dedupeKey} like ${`weekly-digest:%:${weekStart}`}`);
  return rows.map((r) => r.to).sort();
}
const everyone = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i + 1}@example.com`).sort();

describe('weekly digest catch-up', () => {
  it('sends the Sunday missed during downtime when the process starts again (Tuesday, same week)', async () => {
    const runner = createTestJobRunner(t);
    try {
      const done = new Promise<void>((resolve, reject) => {
        runner.agenda.once('complete:weekly-digest-catch-up', () => resolve());
        runner.agenda.once('fail:weekly-digest-catch-up', (err: Error) => reject(err));
      });
      await runner.start();
      await done;
    } finally {
      await runner.stop();
    }
    expect(await digestsOfWeek('2026-02-08')).toEqual(everyone);
    // Later checks that week change nothing.
    expect(await t.ctx.services.digest.sendDueWeeklyDigest({ now: new Date('2026-02-12T10:00:00Z') })).toEqual({ weekStart: '2026-02-08', skipped: 'done' });
    expect(await digestsOfWeek('2026-02-08')).toEqual(everyone);
  });

  it("sends nothing before the week's send time", async () => {
    expect(await t.ctx.services.digest.sendDueWeeklyDigest({ now: new Date('2026-02-15T07:59:00Z') })).toEqual({ weekStart: '2026-02-15', skipped: 'not-yet' });
    expect(await digestsOfWeek('2026-02-15')).toEqual([]);
  });

  it('resumes a run that failed halfway; each subscriber gets one digest', async () => {
    // Batches of two subscribers (one transaction each): the run fails in the second batch.
    const digest = createDigestService({ ...t.ctx, mail: t.ctx.services.mail, sendBatch: 2 });
    // A real database failure partway: claiming the 4th subscriber's delivery raises until the trigger is dropped.
    const [fourth] = await t.ctx.db
      .select({ id: digestSubscribers.id })
      .from(digestSubscribers)
      .where(sql`${digestSubscribers.email} = 'reader4@example.com'`);
    await t.database.pool.query(`
      CREATE FUNCTION fail_fourth() RETURNS trigger AS $$
      BEGIN IF NEW.subscriber_id = ${fourth!.id} THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER fail_fourth BEFORE INSERT ON digest_deliveries FOR EACH ROW EXECUTE FUNCTION fail_fourth();`);
    const sunday = new Date('2026-02-15T08:00:00Z');
    await expect(digest.sendDueWeeklyDigest({ now: sunday })).rejects.toMatchObject({
      cause: expect.objectContaining({ message: 'disk full' }),
    });
    // The first batch stays written; the one that failed left nothing behind.
    expect(await digestsOfWeek('2026-02-15')).toEqual(everyone.slice(0, 2));

    await t.database.pool.query('DROP TRIGGER fail_fourth ON digest_deliveries; DROP FUNCTION fail_fourth();');
    // The hourly catch-up an hour later.
    expect(await digest.sendDueWeeklyDigest({ now: new Date('2026-02-15T09:00:00Z') })).toMatchObject({
      weekStart: '2026-02-15',
      queued: 4,
      alreadySent: 2,
    });
    expect(await digestsOfWeek('2026-02-15')).toEqual(everyone);
  });

  it('two processes running it at once send each subscriber exactly one digest', async () => {
    // A second process: its own services (and pool) on the same database.
    const other = createServices({ ...t.ctx, services: undefined } as unknown as Parameters<typeof createServices>[0]);
    const now = new Date('2026-02-22T08:00:05Z');
    const [a, b] = await Promise.all([t.ctx.services.digest.sendDueWeeklyDigest({ now }), other.digest.sendDueWeeklyDigest({ now })]);
    const queued = [a, b].reduce((n, r) => n + ('queued' in r ? r.queued : 0), 0);
    expect(queued).toBe(SUBSCRIBERS);
    expect(await digestsOfWeek('2026-02-22')).toEqual(everyone);
  });
});
