import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { signIn } from '../../../test/factories.js';

/** Every admin route: 401 signed out, 403 for a User and a Moderator, not 401/403 for an Admin. */
const ROUTES: [method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object][] = [
  ['get', '/api/admin/roles'],
  ['post', '/api/admin/roles', { name: 'X' }],
  ['put', '/api/admin/roles/1', { name: 'Admin' }],
  ['delete', '/api/admin/roles/999'],
  ['get', '/api/admin/app-users'],
  ['delete', '/api/admin/app-users/999'],
  ['get', '/api/admin/user-roles'],
  ['post', '/api/admin/user-roles', { userId: 999, roleId: 999 }],
  ['delete', '/api/admin/user-roles/999/999'],
  ['get', '/api/admin/current-status-analytics'],
  ['get', '/api/admin/product-mappings'],
  ['post', '/api/admin/product-mappings/initialize'],
  ['put', '/api/admin/product-mappings/999', { isActive: false }],
  ['delete', '/api/admin/product-mappings/999'],
  ['get', '/api/admin/moderator-activities'],
  ['get', '/api/admin/moderator-activity-stats'],
  ['post', '/api/admin/generate-summary', { reportData: 'text' }],
  ['post', '/api/admin/test-notification', { itemId: 'MC1', itemType: 'message_center' }],
];

let t: TestContext;
let user: Awaited<ReturnType<typeof signIn>>;
let moderator: Awaited<ReturnType<typeof signIn>>;
let admin: Awaited<ReturnType<typeof signIn>>;

beforeAll(async () => {
  t = await createTestContext();
  user = await signIn(t.app, t.ctx.db, { roles: ['User'] });
  moderator = await signIn(t.app, t.ctx.db, { roles: ['Moderator', 'User'] });
  admin = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
});
afterAll(async () => {
  await t.close();
});

describe.each(ROUTES)('%s %s', (method, path, body) => {
  it('answers 401 signed out', async () => {
    const res = await request(t.app)[method](path).send(body);
    expect(res.status).toBe(401);
    expect(res.body.error.name).toBe('AuthenticationError');
  });
  it('answers 403 to a User and to a Moderator', async () => {
    expect((await user.agent[method](path).send(body)).status).toBe(403);
    const res = await moderator.agent[method](path).send(body);
    expect(res.status).toBe(403);
    expect(res.body.error.name).toBe('NotAllowedError');
  });
  it('lets an Admin through', async () => {
    const res = await admin.agent[method](path).send(body);
    expect([401, 403]).not.toContain(res.status);
    expect(res.status).toBeLessThan(500);
  });
});
