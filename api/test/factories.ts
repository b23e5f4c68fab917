/**
 * Test data factories shared by the api tests: items of both sources, users with roles, signed-in agents.
 * They write rows directly (no sync, no sign-in flow), so a test states exactly the data it needs.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Express } from 'express';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Db } from '../src/db/client.js';
import { itemHistory, items, roles, sessions, userRoles, users, type ItemRow, type NewItemRow, type UserRow } from '../src/db/schema/index.js';
import { hashSessionToken, newSessionToken, SESSION_COOKIE } from '../src/http/auth.js';

let sequence = 0;
const next = () => ++sequence;
/**
 * A content hash no other row of this process has: the api keeps sanitised bodies per row id and content hash for the
 * process (item-mapper.ts), and the files a worker runs one after another all start their ids at 1, so a hash made of
 * the external id alone served one file's body for another file's row of the same id and external id.
 */
const testHash = (externalId: string, n: number) => `test-${externalId}-${n}`;

export type ItemOverrides = Partial<Omit<NewItemRow, 'source'>>;

/** A roadmap item shaped like the feed's (ids are unique numbers unless given). */
export async function insertRoadmapItem(db: Db, overrides: ItemOverrides = {}): Promise<ItemRow> {
  const n = next();
  const externalId = overrides.externalId ?? String(400000 + n);
  const [row] = await db
    .insert(items)
    .values({
      source: 'roadmap',
      externalId,
      title: `Microsoft Teams: Test feature ${n}`,
      description: `Test roadmap description ${n}.`,
      status: 'In development',
      products: ['Microsoft Teams'],
      tags: ['Worldwide (Standard Multi-Tenant)', 'Web', 'Microsoft Teams', 'General Availability'],
      cloudInstances: ['Worldwide (Standard Multi-Tenant)'],
      releasePhases: ['General Availability'],
      platforms: ['Web'],
      releaseDate: 'March CY2026',
      createdDate: new Date('2025-06-01T00:00:00Z'),
      modifiedDate: new Date('2025-06-01T00:00:00Z'),
      firstSeenAt: new Date('2025-06-01T00:00:00Z'),
      lastSeenAt: new Date('2025-06-01T00:00:00Z'),
      lastChangedAt: new Date('2025-06-01T00:00:00Z'),
      contentHash: testHash(externalId, n),
      ...overrides,
    })
    .returning();
  return row!;
}

/** A Message Center post shaped like Graph's (ids `MC<n>` unless given). */
export async function insertMessage(db: Db, overrides: ItemOverrides = {}): Promise<ItemRow> {
  const n = next();
  const externalId = overrides.externalId ?? `MC${1100000 + n}`;
  const [row] = await db
    .insert(items)
    .values({
      source: 'messages',
      externalId,
      title: `Microsoft Teams: Test announcement ${n}`,
      summary: `Test message summary ${n}.`,
      bodyHtml: `<p>Test message body ${n}.</p>`,
      products: ['Microsoft Teams'],
      tags: ['Admin impact'],
      platforms: ['Desktop'],
      category: 'stayInformed',
      severity: 'normal',
      adminImpact: true,
      createdDate: new Date('2025-06-01T00:00:00Z'),
      modifiedDate: new Date('2025-06-01T00:00:00Z'),
      firstSeenAt: new Date('2025-06-01T00:00:00Z'),
      lastSeenAt: new Date('2025-06-01T00:00:00Z'),
      lastChangedAt: new Date('2025-06-01T00:00:00Z'),
      contentHash: testHash(externalId, n),
      ...overrides,
    })
    .returning();
  return row!;
}

/** A user with the given built-in or custom role names (roles are created when missing). */
export async function createUser(
  db: Db,
  opts: { roles?: string[]; email?: string; firstName?: string | null; lastName?: string | null } = {},
): Promise<UserRow> {
  const n = next();
  const [user] = await db
    .insert(users)
    .values({
      email: (opts.email ?? `user${n}-${crypto.randomBytes(3).toString('hex')}@example.com`).toLowerCase(),
      firstName: opts.firstName === undefined ? `First${n}` : opts.firstName,
      lastName: opts.lastName === undefined ? `Last${n}` : opts.lastName,
      emailVerifiedAt: new Date('2025-01-01T00:00:00Z'),
    })
    .returning();
  const names = opts.roles ?? [];
  if (names.length) {
    await db
      .insert(roles)
      .values(names.map((name) => ({ name })))
      .onConflictDoNothing();
    const found = await db.select({ id: roles.id }).from(roles).where(inArray(roles.name, names));
    await db.insert(userRoles).values(found.map((r) => ({ userId: user!.id, roleId: r.id })));
  }
  return user!;
}

/**
 * Inserts a session for the user and returns the Cookie header pair; `cookieName` for an https PUBLIC_URL (`__Host-`).
 * The session's passkey proof is as fresh as its sign-in (an admin's guarded actions pass) unless `factorVerifiedAt`
 * says otherwise (null: no passkey proved in it).
 */
export async function sessionCookieFor(
  db: Db,
  userId: number,
  opts: { expiresAt?: Date; cookieName?: string; factorVerifiedAt?: Date | null } = {},
): Promise<string> {
  const token = newSessionToken();
  // Far ahead of any fixed test clock: no idle timeout, absolute lifetime or sliding write happens mid-test.
  const future = new Date('2100-01-01T00:00:00Z');
  await db.insert(sessions).values({
    idHash: hashSessionToken(token),
    userId,
    expiresAt: opts.expiresAt ?? future,
    createdAt: future,
    lastSeenAt: future,
    factorVerifiedAt: opts.factorVerifiedAt === undefined ? future : opts.factorVerifiedAt,
  });
  return `${opts.cookieName ?? SESSION_COOKIE}=${encodeURIComponent(token)}`;
}

/**
 * A new user with roles and a session, through the database alone: a seed (test/seeded-context.ts) writes it once and
 * each test signs in with `cookieAgent(t.app, cookie)`.
 */
export async function seedSession(db: Db, opts: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db, opts);
  return { user, cookie: await sessionCookieFor(db, user.id) };
}

/** A supertest agent that sends the user's session cookie on every request. */
export async function signedInAgent(app: Express, db: Db, user: Pick<UserRow, 'id'>) {
  const cookie = await sessionCookieFor(db, user.id);
  // As a browser sends it from our own pages: a signed-in write without Origin or Sec-Fetch-Site is refused.
  return request.agent(app).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
}

/** Shortcut: a new user with roles and an agent signed in as them. */
export async function signIn(app: Express, db: Db, opts: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db, opts);
  return { user, agent: await signedInAgent(app, db, user) };
}

export async function getItem(db: Db, id: number): Promise<ItemRow | undefined> {
  const [row] = await db.select().from(items).where(eq(items.id, id));
  return row;
}

/** A change history entry of an item (as a sync would record it). */
export async function insertHistory(
  db: Db,
  itemId: number,
  entry: {
    changeType: 'new' | 'changed' | 'removed';
    changeDate: Date;
    changedFields?: string[];
    previousValues?: Record<string, unknown>;
    newValues?: Record<string, unknown>;
  },
): Promise<number> {
  const [row] = await db
    .insert(itemHistory)
    .values({ itemId, changedFields: [], previousValues: {}, newValues: {}, ...entry })
    .returning({ id: itemHistory.id });
  return row!.id;
}
