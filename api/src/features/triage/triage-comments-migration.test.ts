import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installationBefore, type OldInstallation } from '../../../test/migrations.js';

/** Upgrading an installation whose deleted triage comments still hold their text. */
let old: OldInstallation;
beforeAll(async () => {
  old = await installationBefore('0044_clear_deleted_triage_comments');
});
afterAll(() => old.drop());

describe('upgrading deleted triage comments', () => {
  it('clears a deleted comment’s text for readers and keeps it in its comment_deleted activity line', async () => {
    const { rows: items } = await old.pool.query<{ id: number }>(
      `INSERT INTO items (source, external_id, title, content_hash) VALUES ('messages', 'MC600001', 'A post', 'h1') RETURNING id`,
    );
    const { rows: records } = await old.pool.query<{ id: number }>(
      `INSERT INTO triage_records (item_id, state, priority, source) VALUES ($1, 'new', 'low', 'messages') RETURNING id`,
      [items[0]?.id],
    );
    const { rows: comments } = await old.pool.query<{ id: number }>(
      `INSERT INTO triage_comments (record_id, body, history, mentions, created_at, deleted_at) VALUES
         ($1, 'Second draft with a secret', '[{"body": "First draft with a secret", "until": "2026-11-01T00:00:00.000Z"}]', '{}', now(), now()),
         ($1, 'Still here', '[]', '{}', now(), NULL)
       RETURNING id`,
      [records[0]?.id],
    );
    const [deleted, kept] = comments.map((c) => Number(c.id));
    await old.pool.query(
      `INSERT INTO moderator_activities (user_email, action_type, item_type, item_id, details, recorded_by)
       VALUES ('mod@example.com', 'comment_deleted', 'message_center', 'MC600001', $1, 'server')`,
      [JSON.stringify({ commentId: deleted })],
    );

    await old.upgrade();

    const { rows } = await old.pool.query(`SELECT id, body, history FROM triage_comments ORDER BY id`);
    expect(rows).toEqual([
      { id: deleted, body: '', history: [] },
      { id: kept, body: 'Still here', history: [] },
    ]);
    const { rows: log } = await old.pool.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM moderator_activities WHERE action_type = 'comment_deleted'`,
    );
    expect(log[0]?.details).toEqual({
      commentId: deleted,
      body: 'Second draft with a secret',
      history: [{ body: 'First draft with a secret', until: '2026-11-01T00:00:00.000Z' }],
    });
  });
});
