import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { CompareVersionsResponse, ItemVersion } from '@radar/contracts';
import type { TestContext } from '../../../../test/context.js';
import { insertRoadmapItem } from '../../../../test/factories.js';
import { createReplayTestContext } from '../../../../test/replay-context.js';
import { readFixture, type ReplayServer } from '../../../../test/replay-server.js';
import { T_A, T_B, T_C } from '../../../../test/sync-harness.js';
import { messageRecordsFromPayload, roadmapRecordsFromPayload } from '../../../sources/normalize.js';
import { messageAdapter, roadmapAdapter, type SourceAdapter } from '../../sync/records.js';

/**
 * Versions rebuilt from the history of real syncs (the production sync service and clients, recorded snapshots from
 * the replay server): roadmap A → B → A again (500006 removed, then back); messages A → B → C (MC900008 expires, then
 * comes back revised). Every rebuilt version must equal the snapshot it came from.
 */
let server: ReplayServer;
let t: TestContext;

/** Tracked fields of a normalised snapshot record, as history stores them. */
function stateOf<R>(adapter: SourceAdapter<R>, record: R): Record<string, unknown> {
  return Object.fromEntries(adapter.fields.map((f) => [f.name, f.value(record) ?? null]));
}

beforeAll(async () => {
  ({ t, server } = await createReplayTestContext({}, { now: T_A }));
  const step = async (roadmap: string | null, messages: string | null, at: string) => {
    t.clock.set(at);
    if (roadmap) {
      server.setRoadmap(roadmap);
      expect((await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' })).run.status).toBe('success');
    }
    if (messages) {
      server.setMessages(messages);
      expect((await t.ctx.services.sync.syncMessages({ trigger: 'admin' })).run.status).toBe('success');
    }
  };
  await step('A', 'A', T_A);
  await step('B', 'B', T_B);
  await step('A', 'C', T_C);
});

afterAll(async () => {
  await t.close();
  await server.close();
});

const versions = async (path: string) => {
  const res = await request(t.app).get(path);
  expect(res.status).toBe(200);
  return res.body as ItemVersion[];
};
const compare = async (path: string, query: Record<string, string> = {}) => {
  const res = await request(t.app).get(path).query(query);
  expect(res.status).toBe(200);
  return res.body as CompareVersionsResponse;
};

describe('GET …/versions', () => {
  it('lists a roadmap item newest first, numbered from 1 = first seen', async () => {
    expect(await versions('/api/roadmap/items/500002/versions')).toEqual([
      { version: 3, changeDate: new Date(T_C).toISOString(), changeType: 'changed', changedFields: ['status'], minor: false },
      { version: 2, changeDate: new Date(T_B).toISOString(), changeType: 'changed', changedFields: ['status'], minor: false },
      { version: 1, changeDate: new Date(T_A).toISOString(), changeType: 'new', changedFields: [], minor: false },
    ]);
    // Removed, then back: both are versions.
    expect((await versions('/api/roadmap/items/500006/versions')).map((v) => [v.version, v.changeType, v.changedFields])).toEqual([
      [3, 'changed', ['isRemoved']],
      [2, 'removed', ['isRemoved']],
      [1, 'new', []],
    ]);
  });

  it('an item without recorded history is one version', async () => {
    await insertRoadmapItem(t.database.db, { externalId: '599001', firstSeenAt: new Date('2026-01-05T00:00:00Z') });
    expect(await versions('/api/roadmap/items/599001/versions')).toEqual([
      { version: 1, changeDate: '2026-01-05T00:00:00.000Z', changeType: 'new', changedFields: [], minor: false },
    ]);
    expect(await compare('/api/roadmap/items/599001/compare')).toMatchObject({ from: { version: 1 }, to: { version: 1 }, fields: [], wordDiff: null });
  });

  it('answers 404 for an unknown item and 400 for a malformed id', async () => {
    expect((await request(t.app).get('/api/roadmap/items/123456/versions')).status).toBe(404);
    expect((await request(t.app).get('/api/message-center/items/MC1/versions')).status).toBe(404);
    const bad = await request(t.app).get('/api/message-center/items/nope/versions');
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('messageId');
  });

  it('rebuilds every version exactly as the snapshot it was seen in', async () => {
    const snapshot = {
      roadmap: {
        A: roadmapRecordsFromPayload(JSON.parse(readFixture('roadmap-a.json'))),
        B: roadmapRecordsFromPayload(JSON.parse(readFixture('roadmap-b.json'))),
      },
      messages: {
        A: messageRecordsFromPayload(JSON.parse(readFixture('messages-a.json'))),
        B: messageRecordsFromPayload(JSON.parse(readFixture('messages-b.json'))),
      },
    };
    // Roadmap items in both A and B: version 1 is A, the version after B's sync is B (and A again after T_C).
    let checked = 0;
    for (const a of snapshot.roadmap.A) {
      const b = snapshot.roadmap.B.find((r) => r.itemId === a.itemId);
      if (!b) continue;
      const id = String(a.itemId);
      const all = await versions(`/api/roadmap/items/${id}/versions`);
      const first = await compare(`/api/roadmap/items/${id}/compare`, { from: '1', to: '1' });
      expect(first.fields).toEqual([]);
      const changed = all.find((v) => v.changeDate === new Date(T_B).toISOString());
      if (!changed) continue;
      const ab = await compare(`/api/roadmap/items/${id}/compare`, { from: '1', to: String(changed.version) });
      const expected = Object.entries(stateOf(roadmapAdapter, b)).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(stateOf(roadmapAdapter, a)[k]));
      expect(ab.fields.map((f) => f.field).sort()).toEqual(expected.map(([k]) => k).sort());
      for (const f of ab.fields) {
        expect(f.before).toEqual(stateOf(roadmapAdapter, a)[f.field]);
        expect(f.after).toEqual(stateOf(roadmapAdapter, b)[f.field]);
      }
      checked++;
    }
    expect(checked).toBe(4); // 500002, 500004, 500005, 500009
    const mc = await compare('/api/message-center/items/MC900002/compare');
    const [ma, mb] = [snapshot.messages.A, snapshot.messages.B].map((list) =>
      stateOf(
        messageAdapter,
        list.find((m) => m.messageId === 'MC900002')!,
      ),
    );
    expect(mc.fields.map((f) => f.field)).toEqual(['title', 'bodyContent', 'tags', 'endDate']);
    for (const f of mc.fields) {
      expect(f.before).toEqual(ma![f.field]);
      expect(f.after).toEqual(mb![f.field]);
    }
  });
});

describe('GET …/compare', () => {
  it('defaults to the last two versions: the field table before / after', async () => {
    const body = await compare('/api/roadmap/items/500002/compare');
    expect(body.from).toMatchObject({ version: 2, changeType: 'changed' });
    expect(body.to).toMatchObject({ version: 3 });
    expect(body.fields).toEqual([{ field: 'status', before: 'Rolling out', after: 'In development' }]);
    expect(body.wordDiff).toBeNull();
    // Any two versions, either way round.
    const back = await compare('/api/roadmap/items/500002/compare', { from: '2', to: '1' });
    expect(back.fields).toEqual([{ field: 'status', before: 'Rolling out', after: 'In development' }]);
    expect((await compare('/api/roadmap/items/500006/compare', { from: '1', to: '2' })).fields).toEqual([{ field: 'isRemoved', before: false, after: true }]);
  });

  it('adds a word-level diff of the description', async () => {
    const body = await compare('/api/roadmap/items/500009/compare', { from: '1', to: '2' });
    expect(body.fields.map((f) => f.field)).toEqual(['description', 'status']);
    expect(body.wordDiff?.field).toBe('description');
    const parts = body.wordDiff!.parts;
    expect(
      parts
        .filter((p) => p.type === 'equal')
        .map((p) => p.text)
        .join(''),
    ).toContain('A refreshed gallery of site templates.');
    expect(
      parts
        .filter((p) => p.type === 'insert')
        .map((p) => p.text)
        .join(''),
    ).toContain('This item is no longer accurate. We apologize for any inconvenience.');
    expect(parts.some((p) => p.type === 'delete')).toBe(false);
    // The HTML of version 1 (<div>…</div>) is read as text: no markup in any part.
    expect(parts.some((p) => /<\/?div/.test(p.text))).toBe(false);
  });

  it('diffs Message Center bodies by their text (HTML-aware), never their markup', async () => {
    const body = await compare('/api/message-center/items/MC900002/compare');
    expect(body.wordDiff?.field).toBe('bodyContent');
    const inserted = body
      .wordDiff!.parts.filter((p) => p.type === 'insert')
      .map((p) => p.text)
      .join('');
    expect(inserted).toContain('Updated February 4, 2026: We have updated the rollout timeline.');
    expect(body.wordDiff!.parts.every((p) => !/<\/?p>/.test(p.text))).toBe(true);
    // Expired in B, back (revised) in C: three versions, the return with its new end date.
    const expired = await versions('/api/message-center/items/MC900008/versions');
    expect(expired.map((v) => v.changeType)).toEqual(['changed', 'removed', 'new']);
    const back = await compare('/api/message-center/items/MC900008/compare', { from: '2', to: '3' });
    expect(back.fields.map((f) => f.field)).toEqual(['title', 'tags', 'endDate', 'isRemoved']);
  });

  it.each([
    [{ from: '0' }, 'from', 'from: from must be 1 or more'],
    [{ from: '9' }, 'from', 'from: from must be a version of this item (1–3)'],
    [{ to: '4' }, 'to', 'to: to must be a version of this item (1–3)'],
    [{ to: 'latest' }, 'to', 'to: to must be a version number'],
    [{ from: '1.5' }, 'from', 'from: from must be a whole version number'],
  ])('%j is a 400 naming %s', async (query, path, message) => {
    const res = await request(t.app).get('/api/roadmap/items/500002/compare').query(query);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect(res.body.error.issues[0].path).toBe(path);
  });
});
