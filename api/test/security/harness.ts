import { afterAll, beforeAll } from '@jest/globals';
import request from 'supertest';
import type { Endpoint } from '@radar/contracts';
import { hashSessionToken, newSessionToken } from '../../src/http/auth.js';
import { sessions, type UserRow } from '../../src/db/schema/index.js';
import { createTestContext, type TestContext } from '../context.js';
import { createUser } from '../factories.js';

/** The callers every route is tried as. "Admin as User" is an admin impersonating the User role. */
export const CALLERS = ['guest', 'User', 'Moderator', 'Admin', 'Admin as User'] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * The suite's app: the real app on a real database, with impersonation on (its routes exist) and the upstream feeds
 * pointed at a closed local port, so an allowed sync trigger fails fast instead of reaching the internet.
 */
export function securityContext(env: Record<string, string> = {}, opts: { now?: string } = {}): Promise<TestContext> {
  return createTestContext(
    { IMPERSONATION_ENABLED: 'true', ROADMAP_V2_URL: 'http://127.0.0.1:9/v2', ROADMAP_FEED_URL: 'http://127.0.0.1:9/roadmap', FEED_RETRIES: '0', ...env },
    opts,
  );
}

export interface RoleUsers {
  byCaller: Record<Exclude<Caller, 'guest'>, UserRow>;
  /** A new session for the caller (allowed requests may end sessions: sign-out, role changes), or null for a guest. */
  cookie(caller: Caller): Promise<string | null>;
}

/** One user per role; each request gets a fresh session so no allowed request can spoil the next. */
export async function roleUsers(t: TestContext): Promise<RoleUsers> {
  const byCaller = {
    User: await createUser(t.ctx.db, { roles: ['User'] }),
    Moderator: await createUser(t.ctx.db, { roles: ['User', 'Moderator'] }),
    Admin: await createUser(t.ctx.db, { roles: ['User', 'Admin'] }),
    'Admin as User': await createUser(t.ctx.db, { roles: ['User', 'Admin'] }),
  };
  return {
    byCaller,
    async cookie(caller) {
      if (caller === 'guest') return null;
      const token = newSessionToken();
      const now = t.clock.now();
      await t.ctx.db.insert(sessions).values({
        idHash: hashSessionToken(token),
        userId: byCaller[caller].id,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + 24 * 3600_000),
        impersonatedRole: caller === 'Admin as User' ? 'User' : null,
        // The second factor satisfied and fresh (a passkey proved just now): the matrix is about roles.
        factorVerifiedAt: now,
      });
      return `radar_session=${token}`;
    },
  };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A request of the endpoint's method to `url`, with the caller's cookie when there is one, sent as a browser sends it
 * from our own pages (Sec-Fetch-Site: same-origin).
 */
export function call(t: TestContext, method: string, url: string, cookie: string | null): request.Test {
  const req = request(t.app)[method.toLowerCase() as Method](url).set('Sec-Fetch-Site', 'same-origin');
  return cookie ? req.set('Cookie', cookie) : req;
}

/** Every row of a query's table dumped as JSON text: what someone reading the database would see. */
export async function databaseText(t: TestContext): Promise<string> {
  const { rows: tables } = await t.database.pool.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const { rows } = await t.database.pool.query(`SELECT row_to_json(t)::text AS row FROM "${tablename}" t`);
    parts.push(...rows.map((r) => `${tablename}: ${r.row}`));
  }
  return parts.join('\n');
}

/** The suite's context and role users, made in beforeAll and closed in afterAll; tests read `suite.t` and `suite.users`. */
export function useSecurityContext(env: Record<string, string> = {}): { t: TestContext; users: RoleUsers } {
  const suite = {} as { t: TestContext; users: RoleUsers };
  beforeAll(async () => {
    suite.t = await securityContext(env);
    suite.users = await roleUsers(suite.t);
  });
  afterAll(async () => {
    await suite.t.close();
  });
  return suite;
}

/** An endpoint's URL: well-formed ids that match nothing, or malformed ones (a refusal must not depend on them). */
export function urlOf(endpoint: Endpoint, wellFormed = true): string {
  return endpoint.path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
    if (!wellFormed) return name === 'itemId' || name === 'messageId' ? 'x'.repeat(80) : 'not-a-number';
    return name === 'messageId' ? 'MC987654' : '987654';
  });
}
