import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { createUser, signIn } from '../../../../test/factories.js';

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

describe('roles', () => {
  it('lists the built-in roles first with the role shape', async () => {
    const res = await admin.agent.get('/api/admin/roles');
    expect(res.status).toBe(200);
    expect(res.body.slice(0, 3).map((r: { name: string }) => r.name)).toEqual(['Admin', 'Moderator', 'User']);
    expect(res.body[0]).toEqual({ id: expect.any(Number), name: 'Admin', description: expect.any(String), permissions: [], isBuiltIn: true });
  });

  it('creates, updates and deletes a custom role', async () => {
    const created = await admin.agent
      .post('/api/admin/roles')
      .send({ name: '  Auditor ', description: 'Reads things', permissions: ['read', 'read', 'export'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Auditor', description: 'Reads things', permissions: ['read', 'export'], isBuiltIn: false });
    const id = created.body.id;

    const updated = await admin.agent.put(`/api/admin/roles/${id}`).send({ name: 'Senior Auditor', permissions: [] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Senior Auditor', description: null, permissions: [] });

    const deleted = await admin.agent.delete(`/api/admin/roles/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: 'Role Senior Auditor deleted' });
    expect((await admin.agent.delete(`/api/admin/roles/${id}`)).status).toBe(404);
    expect((await admin.agent.put(`/api/admin/roles/${id}`).send({ name: 'Ghost' })).status).toBe(404);
  });

  it('requires a name', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const res = await admin.agent.post('/api/admin/roles').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('name: Role name is required');
      expect(res.body.error.issues[0]).toEqual({ path: 'name', message: 'Role name is required' });
    }
    expect((await admin.agent.post('/api/admin/roles').send({ name: 'Ok', permissions: 'nope' })).status).toBe(400);
    expect((await admin.agent.put('/api/admin/roles/abc').send({ name: 'Ok' })).status).toBe(400);
  });

  it('refuses a duplicate name (any letter case) with 409', async () => {
    await admin.agent.post('/api/admin/roles').send({ name: 'Editors' }).expect(201);
    const dup = await admin.agent.post('/api/admin/roles').send({ name: 'editors' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('A role named Editors already exists');
    const other = await admin.agent.post('/api/admin/roles').send({ name: 'Writers' }).expect(201);
    const rename = await admin.agent.put(`/api/admin/roles/${other.body.id}`).send({ name: 'Moderator' });
    expect(rename.status).toBe(409);
    expect(rename.body.error.message).toBe('A role named Moderator already exists');
  });

  it('protects the built-in roles from deletion and renaming but allows editing their description', async () => {
    const adminId = await roleId('Admin');
    const del = await admin.agent.delete(`/api/admin/roles/${adminId}`);
    expect(del.status).toBe(409);
    expect(del.body.error.message).toBe('The built-in Admin role cannot be deleted');
    const rename = await admin.agent.put(`/api/admin/roles/${adminId}`).send({ name: 'Superuser' });
    expect(rename.status).toBe(409);
    expect(rename.body.error.message).toBe('The built-in Admin role cannot be renamed');
    expect((await admin.agent.delete(`/api/admin/roles/${await roleId('Moderator')}`)).status).toBe(409);
    const edit = await admin.agent.put(`/api/admin/roles/${adminId}`).send({ name: 'Admin', description: 'Runs the place', permissions: ['all'] });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ name: 'Admin', description: 'Runs the place', permissions: ['all'], isBuiltIn: true });
  });

  it('removes the assignments of a deleted role', async () => {
    const role = await admin.agent.post('/api/admin/roles').send({ name: 'Temp' }).expect(201);
    const u = await createUser(t.ctx.db);
    await admin.agent.post('/api/admin/user-roles').send({ userId: u.id, roleId: role.body.id }).expect(201);
    await admin.agent.delete(`/api/admin/roles/${role.body.id}`).expect(200);
    expect(await q('SELECT * FROM user_roles WHERE role_id = $1', [role.body.id])).toEqual([]);
  });
});
