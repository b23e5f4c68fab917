import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createUser, signedInAgent } from '../../../test/factories.js';

let t: TestContext;
// Each test starts from its own database, so none depends on what another wrote.
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(async () => {
  await t.close();
});

const valid = { firstName: 'Ada', lastName: 'Lovelace', email: ' Ada@Example.com ', message: 'Please add a GCC High filter.' };

describe('POST /api/contact', () => {
  it('stores a valid submission with a trimmed, lower-cased e-mail', async () => {
    const res = await request(t.app).post('/api/contact').send(valid);
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const { rows } = await t.database.pool.query('select email, message, is_read from contact_submissions where id = $1', [res.body.id]);
    expect(rows[0]).toEqual({ email: 'ada@example.com', message: valid.message, is_read: false });
  });

  it.each([
    ['firstName', { firstName: 'A' }, 'First name must be at least 2 characters'],
    ['lastName', { lastName: '' }, 'Last name must be at least 2 characters'],
    ['email', { email: 'not-an-address' }, 'Please enter a valid email address'],
    ['message', { message: 'too short' }, 'Message must be at least 10 characters'],
  ])('refuses a bad %s with its field message', async (field, patch, message) => {
    const res = await request(t.app)
      .post('/api/contact')
      .send({ ...valid, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toContainEqual({ path: field, message });
  });

  it('refuses a missing field by name', async () => {
    const { message: _omit, ...rest } = valid;
    const res = await request(t.app).post('/api/contact').send(rest);
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('message');
  });
});

describe('admin contact submissions', () => {
  it('is Admin only: 401 for guests, 403 for users and moderators', async () => {
    expect((await request(t.app).get('/api/admin/contact-submissions')).status).toBe(401);
    const user = await signedInAgent(t.app, t.ctx.db, await createUser(t.ctx.db, { roles: ['User'] }));
    expect((await user.get('/api/admin/contact-submissions')).status).toBe(403);
    const moderator = await signedInAgent(t.app, t.ctx.db, await createUser(t.ctx.db, { roles: ['Moderator'] }));
    expect((await moderator.delete('/api/admin/contact-submissions/1')).status).toBe(403);
  });

  it('lists newest first, marks read and deletes', async () => {
    const admin = await signedInAgent(t.app, t.ctx.db, await createUser(t.ctx.db, { roles: ['Admin'] }));
    t.clock.advance(60_000);
    const second = await request(t.app)
      .post('/api/contact')
      .send({ ...valid, message: 'The second message, later.' });
    const list = await admin.get('/api/admin/contact-submissions');
    expect(list.status).toBe(200);
    expect(list.body[0].id).toBe(second.body.id);
    expect(list.body[0]).toMatchObject({ firstName: 'Ada', isRead: false });

    const read = await admin.patch(`/api/admin/contact-submissions/${second.body.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.isRead).toBe(true);

    expect((await admin.delete(`/api/admin/contact-submissions/${second.body.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/contact-submissions/${second.body.id}`)).status).toBe(404);
    const bad = await admin.patch('/api/admin/contact-submissions/abc/read');
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('id');
  });
});
