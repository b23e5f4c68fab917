import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { endpointList, type Endpoint } from '@radar/contracts';
import { trackers, itemRelevance, items, mailOutbox, messageRoadmapLinks, triageComments, triageRecords } from '../../src/db/schema/index.js';
import type { TestContext } from '../context.js';
import { mailContentOf } from '../auth-helpers.js';
import { insertMessage, insertRoadmapItem, insertHistory, signedInAgent } from '../factories.js';
import { startSmtpSink, type SmtpSink } from '../smtp-sink.js';
import { insertTenant, receivedBy } from '../tenant-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { call, roleUsers, securityContext, type RoleUsers } from './harness.js';

/**
 * ASVS V4 (access control), tenant isolation, generated from the endpoint table beside the access matrix: every route
 * a User or a Moderator may call that names an item, post, issue or triage record (a path, query or body key of
 * ITEM_KEYS in its zod schemas) is called with the id of a post (or issue, or record) that only a private tenant the
 * caller was not given received, and with an id that does not exist. Both answers must be the same (status, error
 * name, message with the id swapped), and no answer, no mail and no webhook may carry the private titles. A route
 * added to the table joins the matrix by naming such a key.
 */

/** The keys that name an item (or the records of items) in a route's params, query or body. */
const ITEM_KEYS = ['itemId', 'messageId', 'issueId', 'items'] as const;

/**
 * Routes that name an item but are not compared, each with the reason. The test below fails when one leaves the
 * table, so the list cannot keep a name nothing answers to.
 */
const EXCLUDED: Record<string, string> = {
  // Roadmap items belong to no tenant: everyone sees every one. Their answers are still searched for the private
  // titles (see "roadmap routes" below), with a roadmap item the private post links to.
  'items.roadmapHistory': 'roadmap item',
  'items.roadmapVersions': 'roadmap item',
  'items.roadmapCompare': 'roadmap item',
  'items.roadmapLinkedMessages': 'roadmap item',
  'items.roadmapRelatedIssues': 'roadmap item',
  'curation.moderateRoadmap': 'roadmap item',
};

/** A valid body (and query) for each compared route that needs one, so the answer is about the id, not a 400. */
type Kind = 'message' | 'health';
const TRIAGE_TYPE: Record<Kind, string> = { message: 'message-center', health: 'service-health' };
const SAMPLES: Record<string, { body?: (id: string, kind: Kind) => object; query?: string }> = {
  'items.messageCompare': { query: '?from=1&to=2' },
  'curation.moderateMessage': { body: () => ({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: '' }) },
  'curation.recordActivity': { body: (id) => ({ actionType: 'featured', itemType: 'message_center', itemId: id, details: {} }) },
  'subscriptions.create': { body: (id) => ({ subscriptionType: 'item', itemType: 'message_center', itemId: id }) },
  'triage.bulk': { body: (id, kind) => ({ items: [{ itemType: TRIAGE_TYPE[kind], itemId: id }], set: { state: 'relevant' } }) },
  'triage.update': { body: () => ({ state: 'relevant' }) },
  'triage.addComment': { body: () => ({ body: 'Looking at it' }) },
  'triage.editComment': { body: () => ({ body: 'Edited' }) },
  'trackers.bulkTasks': { body: (id, kind) => ({ items: [{ itemType: TRIAGE_TYPE[kind], itemId: id }], trackerId }) },
  'trackers.createTask': { body: () => ({ trackerId }) },
};

const PRIVATE = { message: 'MC7200001', health: 'TM720001' } as const;
const UNKNOWN = { message: 'MC7299999', health: 'TM729999' } as const;
/** The private post's and issue's titles, and the private tenant's relevance of the post (its reason tells its usage). */
const TITLES = ['Fabrikam merger: secret Teams rollout', 'Fabrikam outage: secret datacentre', 'Fabrikam usage: 4,321 people used Teams'];
const LINKED_ROADMAP_ID = '720001';

/** The top-level keys of a zod object schema, through the wrappers (strict, refine, default, pipes). */
function keysOf(schema: unknown): string[] {
  let s = schema as { shape?: object; _zod?: { def?: { innerType?: unknown; in?: unknown; schema?: unknown } } } | undefined;
  for (let i = 0; s && !s.shape && i < 6; i++) {
    const def = s._zod?.def;
    s = (def?.innerType ?? def?.in ?? def?.schema) as typeof s;
  }
  return s?.shape ? Object.keys(s.shape) : [];
}

const pathParams = (e: Endpoint) => [...e.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
const keysOfEndpoint = (e: Endpoint) => [...pathParams(e), ...keysOf(e.query), ...keysOf(e.body)];
const namesItem = (e: Endpoint) => keysOfEndpoint(e).some((k) => (ITEM_KEYS as readonly string[]).includes(k));

/** Which kinds of private id a route takes: a post, an issue, or either where the route names the item's type. */
function kindsOf(e: Endpoint): Kind[] {
  const keys = keysOfEndpoint(e);
  if (keys.includes('messageId')) return ['message'];
  if (keys.includes('issueId')) return ['health'];
  if (pathParams(e).includes('itemType') || keys.includes('items')) return ['message', 'health'];
  // A body's itemType is roadmap or message_center (ITEM_TYPES).
  if (keys.includes('itemType')) return ['message'];
  return [];
}

// Admin routes are left out: admins see every tenant, and the access matrix keeps everyone else out of them.
const inMatrix = endpointList.filter((e) => namesItem(e) && e.access !== 'admin' && e.access !== 'realAdmin' && !(e.id in EXCLUDED));
const CALLERS = ['User', 'Moderator'] as const;

let t: TestContext;
let users: RoleUsers;
let sink: SmtpSink;
let hook: WebhookReceiver;
let commentId = 0;
let trackerId = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  hook = await startWebhookReceiver();
  t = await securityContext({ SMTP_URL: sink.url, ALLOW_PRIVATE_WEBHOOKS: 'true' });
  users = await roleUsers(t);
  const db = t.database.db;
  const contoso = await insertTenant(db, { name: 'Contoso', visibility: 'public' });
  const fabrikam = await insertTenant(db, { name: 'Fabrikam', visibility: 'private' });
  const roadmap = await insertRoadmapItem(db, { externalId: LINKED_ROADMAP_ID, title: 'Public roadmap item the private post names' });
  const post = await insertMessage(db, { externalId: PRIVATE.message, title: TITLES[0], products: ['Microsoft Teams'] });
  const [issue] = await db
    .insert(items)
    .values({
      source: 'health',
      externalId: PRIVATE.health,
      title: TITLES[1]!,
      status: 'serviceDegradation',
      products: ['Microsoft Teams'],
      createdDate: new Date('2025-06-01T00:00:00Z'),
      modifiedDate: new Date('2025-06-01T00:00:00Z'),
      firstSeenAt: new Date('2025-06-01T00:00:00Z'),
      lastSeenAt: new Date('2025-06-01T00:00:00Z'),
      lastChangedAt: new Date('2025-06-01T00:00:00Z'),
      contentHash: 'test-health',
    })
    .returning();
  const publicPost = await insertMessage(db, { title: 'Contoso post' });
  await receivedBy(db, post.id, [fabrikam.id]);
  await receivedBy(db, issue!.id, [fabrikam.id]);
  await receivedBy(db, publicPost.id, [contoso.id]);
  await db.insert(messageRoadmapLinks).values({ messageItemId: post.id, roadmapExternalId: roadmap.externalId, origin: 'details' });
  for (const id of [post.id, issue!.id]) {
    await insertHistory(db, id, { changeType: 'new', changeDate: new Date('2025-06-01T00:00:00Z') });
    await insertHistory(db, id, {
      changeType: 'changed',
      changeDate: new Date('2025-07-01T00:00:00Z'),
      changedFields: ['title'],
      previousValues: { title: 'x' },
      newValues: { title: 'y' },
    });
  }
  const records = await db
    .insert(triageRecords)
    .values([
      { itemId: post.id, tenantId: fabrikam.id, source: 'messages' as const },
      { itemId: issue!.id, tenantId: fabrikam.id, source: 'health' as const },
    ])
    .returning({ id: triageRecords.id });
  await db.insert(itemRelevance).values({ itemId: post.id, tenantId: fabrikam.id, level: 3, reason: TITLES[2]!, computedAt: new Date() });
  const [comment] = await db
    .insert(triageComments)
    .values({ recordId: records[0]!.id, authorId: users.byCaller.Admin.id, body: `About ${TITLES[0]}` })
    .returning({ id: triageComments.id });
  commentId = comment!.id;
  const [tracker] = await db
    .insert(trackers)
    .values({
      kind: 'jira',
      name: 'Jira',
      settings: { baseUrl: 'https://jira.example.com', auth: 'token', email: 'ops@example.com', projectKey: 'CHG', issueType: 'Task' },
    })
    .returning({ id: trackers.id });
  trackerId = tracker!.id;
  // Every caller has a channel that takes triage notices: a notice about the private records would reach it.
  for (const caller of CALLERS) {
    const agent = await signedInAgent(t.app, db, users.byCaller[caller]);
    const res = await agent.post('/api/alert-channels').send({ kind: 'webhook', name: 'Mine', url: `${hook.url}/${caller}`, triageNotices: true });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await sink.close();
  await hook.close();
});

function urlFor(e: Endpoint, id: string, kind: Kind): string {
  const path = e.path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
    if (name === 'messageId' || name === 'issueId' || name === 'itemId') return id;
    if (name === 'itemType') return TRIAGE_TYPE[kind];
    if (name === 'commentId') return String(commentId);
    if (name === 'attachmentId') return 'att-1';
    return '987654';
  });
  return path + (SAMPLES[e.id]?.query ?? '');
}

async function answer(e: Endpoint, caller: (typeof CALLERS)[number], id: string, kind: Kind) {
  const req = call(t, e.method, urlFor(e, id, kind), await users.cookie(caller));
  const body = SAMPLES[e.id]?.body?.(id, kind);
  return body ? req.send(body) : e.body ? req.send({}) : req;
}

const leaks = (text: string) => TITLES.filter((title) => text.includes(title));

describe('the tenant-scope matrix covers every route that names an item', () => {
  it('keeps its exclusions in the table, and knows the kind of every id it compares', () => {
    const ids = new Set(endpointList.map((e) => e.id));
    expect(Object.keys(EXCLUDED).filter((id) => !ids.has(id))).toEqual([]);
    expect(Object.keys(SAMPLES).filter((id) => !ids.has(id))).toEqual([]);
    expect(inMatrix.filter((e) => kindsOf(e).length === 0).map((e) => e.id)).toEqual([]);
    expect(inMatrix.filter((e) => e.body && !SAMPLES[e.id]?.body).map((e) => e.id)).toEqual([]);
    expect(inMatrix.length).toBeGreaterThanOrEqual(20);
  });

  it('has seeded what it hides: an admin sees the private post, issue, record and relevance', async () => {
    const cookie = await users.cookie('Admin');
    for (const url of [
      `/api/message-center/items/${PRIVATE.message}`,
      `/api/service-health/issues/${PRIVATE.health}`,
      `/api/triage/message-center/${PRIVATE.message}`,
      `/api/relevance/message-center/${PRIVATE.message}`,
    ]) {
      const res = await call(t, 'GET', url, cookie);
      expect([url, res.status]).toEqual([url, 200]);
    }
    const relevance = await call(t, 'GET', `/api/relevance/message-center/${PRIVATE.message}`, cookie);
    expect(leaks(relevance.text)).toEqual([TITLES[2]]);
  });
});

const cases = inMatrix.flatMap((e) => CALLERS.flatMap((caller) => kindsOf(e).map((kind) => [e.id, caller, kind, e] as const)));

describe.each(cases)('%s as %s (%s)', (_id, caller, kind, endpoint) => {
  it('answers the private id exactly as an id that does not exist, and never with its title', async () => {
    const unknown = await answer(endpoint, caller, UNKNOWN[kind], kind);
    const hidden = await answer(endpoint, caller, PRIVATE[kind], kind);
    const shape = (res: typeof unknown, id: string) => ({
      status: res.status,
      error: res.body?.error?.name ?? null,
      message: typeof res.body?.error?.message === 'string' ? res.body.error.message.replaceAll(id, '<id>') : null,
    });
    expect(shape(hidden, PRIVATE[kind])).toEqual(shape(unknown, UNKNOWN[kind]));
    // An answer about anything but the id (a 400 naming another field) would make the comparison say nothing.
    const otherFields = ((unknown.body?.error?.issues ?? []) as { path: string }[]).filter((i) => !ITEM_KEYS.some((k) => i.path.startsWith(k)));
    expect(unknown.status === 400 && otherFields.length > 0 ? unknown.text.slice(0, 300) : 'about the id').toBe('about the id');
    expect(leaks(hidden.text)).toEqual([]);
  });
});

describe('roadmap routes', () => {
  it.each(Object.keys(EXCLUDED).filter((id) => EXCLUDED[id] === 'roadmap item'))('%s never carries a private title', async (id) => {
    const endpoint = endpointList.find((e) => e.id === id)!;
    for (const caller of CALLERS) {
      const url = endpoint.path.replace(':itemId', LINKED_ROADMAP_ID) + (endpoint.id === 'items.roadmapCompare' ? '?from=1&to=2' : '');
      const req = call(t, endpoint.method, url, await users.cookie(caller));
      const res = endpoint.body ? await req.send({ isFeatured: false, thirdPartyLinks: [], moderatorNotes: '' }) : await req;
      expect(leaks(res.text)).toEqual([]);
    }
  });
});

describe('what the matrix sent', () => {
  it('no mail and no webhook carries a private title', async () => {
    await t.ctx.services.triageMail.deliver();
    await t.ctx.services.mail.deliverNow();
    await t.ctx.services.alerts.deliverNow();
    const outbox = await t.ctx.db.select().from(mailOutbox);
    expect(outbox.flatMap((row) => leaks(JSON.stringify(mailContentOf(t, row))).map((title) => `${row.kind} to ${row.toAddress}: ${title}`))).toEqual([]);
    expect(sink.messages.flatMap((m) => leaks(`${m.subject}\n${m.text}\n${m.html}`))).toEqual([]);
    expect(hook.requests.flatMap((r) => leaks(r.body))).toEqual([]);
  });
});
