import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { createUser, signIn } from '../../../../test/factories.js';
import { createUserRolesService } from './user-roles.service.js';
import { createUsersService } from '../users/users.service.js';
import { ConflictError } from '../../../lib/errors.js';

let t: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
const q = (text: string, params: unknown[] = []) => t.database.pool.query(text, params).then((r) => r.rows);
const roleId = async (name: string) => (await q('SELECT id FROM roles WHERE name = $1', [name]))[0]?.id as number;

// Each test starts from its own database, so none depends on what another wrote.
beforeEach(async () => {
  t = await createTestContext();
  admin = await signIn(t.app, t.ctx.db, { roles: ['Admin'], email: 'boss@example.com', firstName: 'Boss' });
});
afterEach(async () => {
  await t.close();
});

describe('user-role assignments and the last admin', () => {
  it('assigns a role once, lists it, and removes it', async () => {
    const u = await createUser(t.ctx.db, { email: 'assignee@example.com' });
    const moderatorId = await roleId('Moderator');
    const first = await admin.agent.post('/api/admin/user-roles').send({ userId: u.id, roleId: moderatorId });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(Number),
      userId: u.id,
      roleId: moderatorId,
      user: { id: u.id, email: 'assignee@example.com', firstName: u.firstName, lastName: u.lastName },
      role: { id: moderatorId, name: 'Moderator' },
    });
    const again = await admin.agent.post('/api/admin/user-roles').send({ userId: String(u.id), roleId: moderatorId });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await q('SELECT count(*)::int AS n FROM user_roles WHERE user_id = $1', [u.id])).toEqual([{ n: 1 }]);

    const list = await admin.agent.get('/api/admin/user-roles');
    expect(list.body).toContainEqual(first.body);

    const removed = await admin.agent.delete(`/api/admin/user-roles/${u.id}/${moderatorId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, message: 'Role Moderator removed from assignee@example.com' });
    expect((await admin.agent.delete(`/api/admin/user-roles/${u.id}/${moderatorId}`)).status).toBe(404);
  });

  it('validates and answers 404 for unknown users and roles', async () => {
    const missing = await admin.agent.post('/api/admin/user-roles').send({ roleId: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues[0].path).toBe('userId');
    const u = await createUser(t.ctx.db);
    const noUser = await admin.agent.post('/api/admin/user-roles').send({ userId: 987654, roleId: await roleId('User') });
    expect(noUser.status).toBe(404);
    expect(noUser.body.error.message).toBe('User 987654 not found');
    const noRole = await admin.agent.post('/api/admin/user-roles').send({ userId: u.id, roleId: 987654 });
    expect(noRole.status).toBe(404);
    expect(noRole.body.error.message).toBe('Role 987654 not found');
    expect((await admin.agent.delete(`/api/admin/user-roles/x/1`)).status).toBe(400);
  });

  it('never lets the last admin lose the Admin role or be deleted', async () => {
    const adminId = await roleId('Admin');
    // Only `admin` holds Admin in this file so far.
    const res = await admin.agent.delete(`/api/admin/user-roles/${admin.user.id}/${adminId}`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Cannot remove the Admin role from the last admin: give another user the Admin role first');

    // A second admin; then the first may step down, after which the second is the last and cannot be removed.
    const second = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
    await admin.agent.delete(`/api/admin/user-roles/${admin.user.id}/${adminId}`).expect(200);
    expect((await admin.agent.get('/api/admin/roles')).status).toBe(403);
    const lastDelete = await second.agent.delete(`/api/admin/user-roles/${second.user.id}/${adminId}`);
    expect(lastDelete.status).toBe(409);

    // Deleting the last admin's account is refused too. Over HTTP the caller is an admin, so the target is never the
    // only one; the guard still stands in the service (races, future callers), so it is tested there.
    const third = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
    await third.agent.delete(`/api/admin/app-users/${second.user.id}`).expect(200);
    expect(await q('SELECT user_id FROM user_roles WHERE role_id = $1', [adminId])).toEqual([{ user_id: third.user.id }]);
    const service = createUsersService(t.ctx);
    await expect(service.remove(third.user.id, admin.user.id)).rejects.toThrow('Cannot delete the last admin: give another user the Admin role first');
    await expect(service.remove(third.user.id, admin.user.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it('serialises concurrent removals so one admin always remains', async () => {
    const adminId = await roleId('Admin');
    const a = await createUser(t.ctx.db, { roles: ['Admin'] });
    const b = await createUser(t.ctx.db, { roles: ['Admin'] });
    // Leave exactly a and b as admins, then let each remove the other at the same moment.
    await t.database.pool.query('DELETE FROM user_roles WHERE role_id = $1 AND user_id NOT IN ($2, $3)', [adminId, a.id, b.id]);
    const service = createUserRolesService(t.ctx);
    const results = await Promise.allSettled([service.unassign(b.id, adminId), service.unassign(a.id, adminId)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.any(ConflictError) });
    expect(await q('SELECT count(*)::int AS n FROM user_roles WHERE role_id = $1', [adminId])).toEqual([{ n: 1 }]);
  });
});
