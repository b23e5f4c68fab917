import { afterEach, describe, expect, it } from '@jest/globals';
import { changeHealthScore } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { createTriageReportsRepo } from './triage-reports.repo.js';
import { createTriageRepo } from './triage.repo.js';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the change-health formula', () => {
  it('is 100 with nothing open, and loses each cost’s maximum times its weighted share', () => {
    expect(changeHealthScore({ weight: 0, overdue: 0, unowned: 0, imminent: 0, untriaged: 0 })).toEqual({
      score: 100,
      points: { overdue: 0, unowned: 0, imminent: 0, untriaged: 0 },
    });
    // Everything overdue, unowned, imminent and untriaged at once cannot be: but every cost at its maximum is 0.
    expect(changeHealthScore({ weight: 10, overdue: 10, unowned: 10, imminent: 10, untriaged: 10 }).score).toBe(0);
    // Half the weight overdue (25 points), a quarter unowned (5).
    expect(changeHealthScore({ weight: 12, overdue: 6, unowned: 3, imminent: 0, untriaged: 0 })).toEqual({
      score: 70,
      points: { overdue: 25, unowned: 5, imminent: 0, untriaged: 0 },
    });
  });
});

describe('change health', () => {
  it('scores the open records a caller may see, lists what costs the points, and keeps a daily value for the trend', async () => {
    t = await createTestContext({}, { now: '2026-11-20T12:00:00Z' });
    const db = t.database.db;
    const pool = t.database.pool;
    const { user: mod, agent } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com' });
    const { agent: admin } = await signIn(t.app, db, { roles: ['Admin'], email: 'admin@example.com' });
    const { agent: reader } = await signIn(t.app, db, { email: 'reader@example.com' });
    expect((await agent.get('/api/triage/health')).body).toEqual({ score: 100, open: 0, costs: [], trend: [] });

    const end = new Date('2027-03-01T00:00:00Z');
    // A high-priority post (act-by inside the window, so overdue), a medium one due in 5 days, a low one with nothing due.
    await insertMessage(db, { externalId: 'MC960001', isMajorChange: true, actionRequiredBy: new Date('2026-11-15T00:00:00Z'), endDate: end });
    await insertMessage(db, { externalId: 'MC960002', actionRequiredBy: new Date('2026-11-25T00:00:00Z'), endDate: end });
    await insertMessage(db, { externalId: 'MC960003', endDate: end });
    await createTriageRepo(db).openRecords('all', t.clock.now());
    // Weights 3 + 2 + 1 = 6: MC960001 overdue (3), all unowned (6), MC960002 imminent and New (2).
    const first = (await agent.get('/api/triage/health')).body;
    expect(first).toMatchObject({
      open: 3,
      costs: [
        { kind: 'overdue', label: 'Overdue', records: 1, points: 25 },
        { kind: 'unowned', label: 'Nobody owns them', records: 3, points: 20 },
        { kind: 'imminent', label: 'Due within 14 days, still New', records: 1, points: 5 },
      ],
    });
    expect(first.score).toBe(50);

    // The moderator takes all three and works MC960001: unowned and its overdue weight stay only where they are.
    for (const id of ['MC960001', 'MC960002', 'MC960003']) {
      expect((await agent.put(`/api/triage/message-center/${id}`).send({ ownerId: mod.id })).status).toBe(200);
    }
    expect((await agent.put('/api/triage/message-center/MC960001').send({ state: 'done' })).status).toBe(200);
    // Weights 2 + 1 = 3: MC960002 imminent (2 of 3: 10 points).
    expect((await agent.get('/api/triage/health')).body).toMatchObject({ score: 90, open: 2, costs: [{ kind: 'imminent', records: 1, points: 10 }] });

    // A week on nobody looked at them: still New after a week costs too; the trend has a value per counted day.
    const reports = createTriageReportsRepo(db);
    await reports.recordDay(t.clock.now());
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    await reports.recordDay(t.clock.now());
    const later = (await admin.get('/api/triage/health')).body;
    // 2026-11-28: MC960002 (due 25 Nov) overdue (2 of 3: 33), both New for 8 days (15).
    expect(later).toMatchObject({
      score: 52,
      costs: [
        { kind: 'overdue', points: 33 },
        { kind: 'untriaged', points: 15 },
      ],
    });
    expect(later.trend).toEqual([
      { date: '2026-11-20', score: 90 },
      { date: '2026-11-28', score: 52 },
    ]);
    const analytics = (await admin.get('/api/triage/analytics').query({ days: 30 })).body.days as { date: string; score: number | null }[];
    expect(analytics.map((d) => [d.date, d.score])).toEqual([
      ['2026-11-20', 90],
      ['2026-11-28', 52],
    ]);
    // A day counted before the score existed has no score.
    await pool.query(`INSERT INTO triage_daily_counts (day, tenant_key, open, overdue, done, not_relevant) VALUES ('2026-11-01', 0, 1, 0, 0, 0)`);
    expect(((await admin.get('/api/triage/analytics').query({ days: 30 })).body.days as { score: number | null }[])[0]?.score).toBeNull();

    // A tenant the caller may not see is not found; a reader sees the records of no tenant.
    expect((await reader.get('/api/triage/health').query({ tenant: 4242 })).status).toBe(404);
    expect((await reader.get('/api/triage/health').query({ tenant: 'none' })).body).toMatchObject({ score: 52, open: 2 });
  });
});
