import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq, like } from 'drizzle-orm';
import request from 'supertest';
import { appState, mailOutbox, notificationSubscriptions } from '../../db/schema/index.js';
import { createMailService } from '../../mail/mail.service.js';
import { createSyncServiceFor } from '../sync/wiring.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createUser } from '../../../test/factories.js';
import { readFixture, startReplayServer, type ReplayServer } from '../../../test/replay-server.js';
import { rawHeader, startSmtpSink, type ReceivedMail, type SmtpSink } from '../../../test/smtp-sink.js';
import { T_A, T_B } from '../../../test/sync-harness.js';
import { createUnsubscribeToken } from '../../mail/unsubscribe-token.js';

/**
 * Item notifications end to end: the production sync service (wired with the notification hook exactly as
 * services.ts does it) reads recorded roadmap snapshots from the replay server; mails go through the outbox and the
 * production delivery to a real SMTP server.
 *
 * Roadmap A → B: 500002 status In development → Rolling out; 500004 GA date and platforms; 500005 title and
 * products; 500009 Cancelled + description; 500006 and 500007 removed from the feed.
 */

type FeedItem = Record<string, unknown> & { id: number };
const snapshotFrom = (base: string, edit: (items: FeedItem[]) => void) => {
  const items = JSON.parse(readFixture(base)) as FeedItem[];
  edit(items);
  return JSON.stringify(items);
};
const byId = (items: FeedItem[], id: number) => items.find((i) => i.id === id)!;

let server: ReplayServer;
let sink: SmtpSink;
let t: TestContext;
let alice: { id: number; email: string };
let bob: { id: number; email: string };
let carol: { id: number; email: string };

async function subscribe(userId: number, externalId: string, changeTypes: string[], isActive = true) {
  const [row] = await t.ctx.db
    .insert(notificationSubscriptions)
    .values({ userId, itemType: 'roadmap', itemExternalId: externalId, itemTitle: `Item ${externalId}`, changeTypes, isActive })
    .returning();
  return row!;
}

async function syncTo(name: string, at: string) {
  server.setRoadmap(name);
  t.clock.set(at);
  const result = await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' });
  expect(result.run.status).toBe('success');
  return result.run.id;
}

const itemMails = () => t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'item-change'));
const unsubscribeLinkOf = (mail: ReceivedMail) => String(rawHeader(mail, 'List-Unsubscribe')).replace(/^<|>$/g, '');

beforeAll(async () => {
  server = await startReplayServer({
    roadmaps: {
      A: readFixture('roadmap-a.json'),
      B: readFixture('roadmap-b.json'),
      // C: 500002 moves on to Launched; 500004 gets a new title.
      C: snapshotFrom('roadmap-b.json', (items) => {
        byId(items, 500002).status = 'Launched';
        byId(items, 500004).title = 'Microsoft 365 admin center: Usage reports for agents and Copilot';
      }),
      // D: 500002 and 500004 change again.
      D: snapshotFrom('roadmap-b.json', (items) => {
        byId(items, 500002).status = 'Cancelled';
        byId(items, 500004).title = 'Usage reports, renamed again';
      }),
      // E (after C): 500002's title changes only in letter case, spacing and punctuation (cosmetic); 500005's GA date
      // slips three months.
      E: snapshotFrom('roadmap-b.json', (items) => {
        byId(items, 500002).status = 'Launched';
        byId(items, 500002).title = 'microsoft copilot (microsoft 365): [copilot extensibility] [devx]  sensitivity labels for custom connectors.';
        byId(items, 500004).title = 'Microsoft 365 admin center: Usage reports for agents and Copilot';
        byId(items, 500005).publicDisclosureAvailabilityDate = 'May CY2026';
      }),
    },
  });
  sink = await startSmtpSink();
  // The guard is off: A → B removes 2 of 12 items (17%); the guard's own mails are tested in held-sync.test.ts.
  t = await createTestContext(
    {
      ROADMAP_V2_URL: server.v2Url,
      ROADMAP_FEED_URL: server.roadmapUrl,
      ROADMAP_RSS_URL: server.rssUrl,
      FEED_RETRIES: '0',
      FEED_TIMEOUT_MS: '2000',
      SMTP_URL: sink.url,
      SYNC_MAX_REMOVED_PERCENT: '100',
    },
    { now: T_A },
  );
  await syncTo('A', T_A);
  alice = await createUser(t.ctx.db, { email: 'alice@example.com', firstName: 'Alice' });
  bob = await createUser(t.ctx.db, { email: 'bob@example.com', firstName: 'Bob' });
  carol = await createUser(t.ctx.db, { email: 'carol@example.com', firstName: 'Carol' });
  await subscribe(alice.id, '500002', ['changed', 'status_change']);
  await subscribe(alice.id, '500004', ['changed', 'status_change']);
  await subscribe(alice.id, '500006', ['changed', 'status_change']);
  // Bob only wants status changes: 500002's status moves; 500004's GA date moves (a date slip counts as a status
  // change) and its platforms change.
  await subscribe(bob.id, '500002', ['status_change']);
  await subscribe(bob.id, '500004', ['status_change']);
  // Carol switched her subscription off.
  await subscribe(carol.id, '500002', ['changed', 'status_change'], false);
});

afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await sink.close();
  await server.close();
});

describe('item notifications after a sync', () => {
  let syncB: number;

  it('sends every subscriber exactly one mail per sync, naming each item and its diff', async () => {
    syncB = await syncTo('B', T_B);
    const delivered = await t.ctx.services.mail.deliverNow();
    expect(delivered.sent).toBe(2);
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual(['alice@example.com', 'bob@example.com']);

    const mail = await sink.waitFor('alice@example.com');
    expect(mail.subject).toBe('3 items you follow changed (2 status changes, 1 date move)');
    // Status change called out, with old → new.
    expect(mail.text).toContain('>> STATUS CHANGED: In development -> Rolling out');
    expect(mail.html).toContain('Status changed: In development → Rolling out');
    // A GA date move is called out like a status change, with its shift in months.
    expect(mail.text).toContain('>> GA DATE MOVED: March CY2026 -> April CY2026 (+1 month)');
    expect(mail.html).toContain('GA date moved: March CY2026 → April CY2026 (+1 month)');
    expect(mail.text).not.toContain('* Release date:');
    // Other field diffs, old → new, as item_history holds them.
    expect(mail.text).toMatch(/\* Platforms: Web -> (Web, Mac|Mac, Web)/);
    // Removal is news too.
    expect(mail.text).toContain('>> THIS ITEM WAS REMOVED FROM THE ROADMAP FEED.');
    // Links to the items and the unsubscribe links.
    expect(mail.text).toContain('Open: http://localhost:8080/roadmap/500002');
    expect(mail.html).toContain('href="http://localhost:8080/roadmap/500004"');
    expect(mail.text).toMatch(/Stop notifications for this item: http:\/\/localhost:8080\/api\/unsubscribe\?token=/);
    // Items nobody subscribed to are not in it.
    expect(mail.text).not.toContain('500005');
    // RFC 8058 headers and a dark-mode-ready HTML part.
    expect(unsubscribeLinkOf(mail)).toMatch(/^http:\/\/localhost:8080\/api\/unsubscribe\?token=/);
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.html).toContain('name="color-scheme"');
  });

  it('honours status_change-only subscriptions: status moves and date slips, not other edits', async () => {
    const mail = await sink.waitFor('bob@example.com');
    expect(mail.subject).toBe('2 items you follow changed (1 status change, 1 date move)');
    expect(mail.text).toContain('Roadmap ID 500002');
    expect(mail.text).toContain('>> STATUS CHANGED: In development -> Rolling out');
    expect(mail.text).toContain('Roadmap ID 500004');
    expect(mail.text).toContain('>> GA DATE MOVED: March CY2026 -> April CY2026 (+1 month)');
  });

  it('uses the dedupe key item-change:<syncId>:<userId> and never sends twice when the step re-runs', async () => {
    const rows = await itemMails();
    expect(rows.map((r) => r.dedupeKey).sort()).toEqual([`item-change:${syncB}:${alice.id}`, `item-change:${syncB}:${bob.id}`]);
    const again = await t.ctx.services.notifications.notifySync(syncB);
    expect(again).toEqual({ syncId: syncB, claimed: false, mails: 0 });
    expect(await t.ctx.services.notifications.sweep()).toEqual([]);
    expect((await itemMails()).length).toBe(2);
    expect((await t.ctx.services.mail.deliverNow()).sent).toBe(0);
  });

  it('sends a second mail for a second sync', async () => {
    sink.clear();
    const syncC = await syncTo('C', '2026-02-08T00:40:00Z');
    expect((await t.ctx.services.mail.deliverNow()).sent).toBe(2);
    const mail = await sink.waitFor('alice@example.com');
    expect(mail.subject).toBe('2 items you follow changed (1 status change)');
    expect(mail.text).toContain('>> STATUS CHANGED: Rolling out -> Launched');
    expect(mail.text).toContain(
      '* Title: Microsoft 365 Admin Center: Usage reports for agents -> Microsoft 365 admin center: Usage reports for agents and Copilot',
    );
    const bobs = await sink.waitFor('bob@example.com');
    expect(bobs.text).toContain('>> STATUS CHANGED: Rolling out -> Launched');
    expect(bobs.text).not.toContain('500004');
    expect((await itemMails()).filter((r) => r.dedupeKey?.startsWith(`item-change:${syncC}:`)).length).toBe(2);
  });

  it('unsubscribes by the one-click link: GET only confirms, POST stops the mails', async () => {
    const mail = sink.messages.find((m) => m.to.includes('alice@example.com'))!;
    const link = unsubscribeLinkOf(mail);
    const path = link.replace('http://localhost:8080', '');

    const page = await request(t.app).get(path);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<form id="action-form" action="\/api\/unsubscribe\?token=[^"]+" method="post">/);
    expect(page.text).toContain('Unsubscribe</button>');
    const stillActive = await t.ctx.db.select().from(notificationSubscriptions).where(eq(notificationSubscriptions.userId, alice.id));
    expect(stillActive.filter((s) => s.isActive).length).toBe(3);

    // What a mail client sends for RFC 8058 one-click: a POST to the header URL, no cookies, no Origin.
    const done = await request(t.app).post(path).type('form').send('List-Unsubscribe=One-Click');
    expect(done.status).toBe(200);
    expect(done.text).toContain('You are unsubscribed');
    const after = await t.ctx.db.select().from(notificationSubscriptions).where(eq(notificationSubscriptions.userId, alice.id));
    // The mail was about 500002 and 500004: those two are off; 500006 was not in it.
    expect(after.filter((s) => s.isActive).map((s) => s.itemExternalId)).toEqual(['500006']);

    sink.clear();
    await syncTo('D', '2026-02-09T00:40:00Z');
    expect((await t.ctx.services.mail.deliverNow()).sent).toBe(1);
    expect(sink.messages.map((m) => m.to[0])).toEqual(['bob@example.com']);
  });

  it('answers a forged or malformed token with a 400 page and changes nothing', async () => {
    const forged = createUnsubscribeToken('another-secret-another-secret-0123456789', { kind: 'items', subscriptionIds: [1] });
    for (const token of [forged, 'garbage', '']) {
      const get = await request(t.app).get(`/api/unsubscribe?token=${encodeURIComponent(token)}`);
      expect(get.status).toBe(400);
      expect(get.text).toContain('This link is not valid');
      expect((await request(t.app).post(`/api/unsubscribe?token=${encodeURIComponent(token)}`)).status).toBe(400);
    }
    expect((await request(t.app).post('/api/unsubscribe')).status).toBe(400);
    const bobs = await t.ctx.db.select().from(notificationSubscriptions).where(eq(notificationSubscriptions.userId, bob.id));
    expect(bobs.every((s) => s.isActive)).toBe(true);
  });
});

describe('crash safety', () => {
  it('a sync whose hook never ran is notified by the sweep, once', async () => {
    // The same database, a sync service without the hook: as if the process died right after the sync committed.
    const bare = createSyncServiceFor(t.ctx, {});
    server.setRoadmap('C');
    t.clock.set('2026-02-10T00:40:00Z');
    const run = await bare.syncRoadmap({ trigger: 'admin' });
    expect(run.changes?.syncId).toBe(run.run.id);
    expect((await itemMails()).some((r) => r.dedupeKey?.startsWith(`item-change:${run.run.id}:`))).toBe(false);

    const swept = await t.ctx.services.notifications.sweep();
    expect(swept).toEqual([{ syncId: run.run.id, claimed: true, mails: 1 }]);
    expect(await t.ctx.services.notifications.sweep()).toEqual([]);
    const marker = await t.ctx.db
      .select()
      .from(appState)
      .where(like(appState.key, `notified-sync:${run.run.id}`));
    expect(marker.length).toBe(1);
  });

  it('a crash after writing the outbox but before delivery still delivers exactly once on restart', async () => {
    const pending = await t.ctx.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'item-change'), eq(mailOutbox.status, 'pending')));
    expect(pending.length).toBe(1);
    sink.clear();
    // "Restart": a brand-new mail service (new nodemailer transport) on the same database.
    const restarted = createMailService(t.ctx);
    try {
      expect((await restarted.deliverNow()).sent).toBe(1);
      expect((await restarted.deliverNow()).sent).toBe(0);
    } finally {
      restarted.close();
    }
    expect((await t.ctx.services.mail.deliverNow()).sent).toBe(0);
    expect(sink.messages.length).toBe(1);
    expect(sink.messages[0]!.to).toEqual(['bob@example.com']);
  });

  it('does not mail a subscription that was switched off', async () => {
    const all = await t.ctx.db.select().from(mailOutbox);
    expect(all.some((m) => m.toAddress === carol.email)).toBe(false);
  });
});

describe('cosmetic edits and date slips', () => {
  it('keeps a cosmetic edit in the history as minor and mails nobody about it; a GA slip is called out', async () => {
    const dave = await createUser(t.ctx.db, { email: 'dave@example.com', firstName: 'Dave' });
    await subscribe(dave.id, '500002', ['changed', 'status_change']);
    await subscribe(dave.id, '500005', ['changed', 'status_change']);
    await t.ctx.services.mail.deliverNow();
    sink.clear();

    await syncTo('E', '2026-02-11T00:40:00Z');
    expect((await t.ctx.services.mail.deliverNow()).sent).toBe(1);
    const mail = await sink.waitFor('dave@example.com');
    expect(mail.subject).toBe('Release date moved: Planner: Webhooks for Planner tasks in Microsoft Graph is now May CY2026');
    expect(mail.text).toContain('>> GA DATE MOVED: February CY2026 -> May CY2026 (+3 months)');
    expect(mail.text).not.toContain('500002');
    // Bob follows 500002 for status changes only: a cosmetic title edit is nothing to him either.
    expect(sink.messages.map((m) => m.to[0])).toEqual(['dave@example.com']);

    const history = await request(t.app).get('/api/roadmap/items/500002/history');
    expect(history.body[0]).toMatchObject({ changeType: 'changed', changedFields: ['title'], minor: true });
    expect(history.body.filter((e: { minor: boolean }) => e.minor)).toHaveLength(1);
    const slipped = await request(t.app).get('/api/unified/items').query({ search: '500005' });
    expect(slipped.body.items[0].releaseMoves).toEqual({
      total: 1,
      gaMoves: 1,
      gaShiftMonths: 3,
      previewMoves: 0,
      previewShiftMonths: 0,
      lastMovedAt: '2026-02-11T00:40:00.000Z',
    });
  });
});
