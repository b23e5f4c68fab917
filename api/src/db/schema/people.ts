/** People, roles, sessions, sign-in codes and API tokens. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  /** Always stored trimmed and lower-cased. */
  email: text('email').notNull().unique(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  profileImageUrl: text('profile_image_url'),
  emailVerifiedAt: ts('email_verified_at'),
  lastLoginAt: ts('last_login_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  permissions: text('permissions')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  isBuiltIn: boolean('is_built_in').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const userRoles = pgTable(
  'user_roles',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_roles_user_role_uq').on(t.userId, t.roleId), index('user_roles_role_idx').on(t.roleId)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the opaque cookie value: a database leak does not leak usable sessions. */
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    /** Effective role while an admin impersonates one (development tool); null otherwise. */
    impersonatedRole: text('impersonated_role'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** How the sign-in that made the session was proven: code (an e-mailed code) or passkey. */
    verifiedWith: text('verified_with').notNull().default('code'),
    /**
     * When the holder last proved a passkey with user verification in this session (a passkey sign-in or a step-up),
     * or entered a recovery code (cleared by the first action it allows); null when neither.
     */
    factorVerifiedAt: ts('factor_verified_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const signInCodes = pgTable(
  'sign_in_codes',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** HMAC of the code; the code itself is never stored. */
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** The requesting client's address key (an IPv6 /64 as one, http/client-address.ts), for the per-address limit. */
    requestIp: text('request_ip'),
    /** sign-in (mailed), or recovery (printed by `npm run admin:recover` on the server: its session counts as a second factor). */
    purpose: text('purpose').notNull().default('sign-in'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
  },
  (t) => [index('sign_in_codes_email_idx').on(t.email, t.createdAt), index('sign_in_codes_ip_idx').on(t.requestIp, t.createdAt)],
);

/**
 * Personal API tokens (`Authorization: Bearer rdr_…`) for feeds, scripts and agents. Only the SHA-256 of a token is
 * stored (256 random bits: a plain hash cannot be reversed, and a lookup by hash needs no per-row salt).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The first characters of the token, shown in the list to tell tokens apart. */
    prefix: text('prefix').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    /** The network of the last request (a /24 of IPv4, a /48 of IPv6): enough to recognise it, not a person's address. */
    lastUsedNetwork: text('last_used_network'),
    /** A token answers nothing after this. Tokens made before expiry existed were given 90 days from the upgrade. */
    expiresAt: ts('expires_at').notNull(),
    /** read | read_subscriptions (contracts API_TOKEN_SCOPES). */
    scope: text('scope').notNull().default('read'),
    /** When the owner was mailed that the token expires soon (once per token). */
    expiryNoticeAt: ts('expiry_notice_at'),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId, t.createdAt.desc()), index('api_tokens_expires_idx').on(t.expiresAt)],
);

/**
 * A sign-up waiting for its code: no account exists until the code is verified, so nobody can pre-register someone
 * else's address with a chosen name. It lives as long as the newest code sent to the address.
 */
export const pendingSignups = pgTable('pending_signups', {
  email: text('email').primaryKey(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
});

/**
 * One row per failed code verification: the per-account cap (wrong codes across all of an address's codes) and the
 * per-client throttle of the verify route count these. Kept a day, like the codes.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** Client address key (an IPv6 /64 as one). */
    clientKey: text('client_key'),
    /** A live code was checked and was wrong (counts toward the account cap); false for no code, expired, cool-down. */
    wrongCode: boolean('wrong_code').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sign_in_failures_email_idx').on(t.email, t.createdAt), index('sign_in_failures_client_idx').on(t.clientKey, t.createdAt)],
);
