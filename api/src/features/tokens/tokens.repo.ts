import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import crypto from 'node:crypto';
import { API_TOKEN_PREFIX, type ApiToken, type ApiTokenScope, type CreatedApiToken } from '@radar/contracts';
import type { Db } from '../../db/client.js';
import { apiTokens } from '../../db/schema/index.js';
import { hashSessionToken } from '../../http/auth.js';
import { returned } from '../../db/returned.js';

/** Characters of the token kept to show in the list (the prefix plus 4 random characters). */
const SHOWN_CHARS = API_TOKEN_PREFIX.length + 4;

/** `rdr_` + 32 random bytes (base64url): 256 bits, so a SHA-256 of it is a safe stored form. */
export function newApiToken(): string {
  return `${API_TOKEN_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
}

export const scopeOf = (value: string): ApiTokenScope => (value === 'read_subscriptions' ? 'read_subscriptions' : 'read');

const toApiToken = (row: typeof apiTokens.$inferSelect): ApiToken => ({
  id: row.id,
  name: row.name,
  prefix: `${row.prefix}…`,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  lastUsedNetwork: row.lastUsedNetwork,
  expiresAt: row.expiresAt.toISOString(),
  scope: scopeOf(row.scope),
});

/** A token about to expire whose owner was not told yet. */
export interface ExpiringToken {
  id: number;
  name: string;
  prefix: string;
  expiresAt: Date;
  email: string;
}

/** A user's personal API tokens: every query is scoped to the owner, so nobody sees or revokes another's. */
export function createTokensRepo(db: Db) {
  return {
    async listOwn(userId: number): Promise<ApiToken[]> {
      const rows = await db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
      return rows.map(toApiToken);
    },

    async countOwn(userId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, userId));
      return row?.n ?? 0;
    },

    /** Stores the token's hash and returns the token itself: the only time it exists outside the caller's hands. */
    async create(userId: number, input: { name: string; scope: ApiTokenScope; expiresAt: Date }, now: Date): Promise<CreatedApiToken & { prefix: string }> {
      const token = newApiToken();
      const [row] = await db
        .insert(apiTokens)
        .values({
          userId,
          name: input.name,
          tokenHash: hashSessionToken(token),
          prefix: token.slice(0, SHOWN_CHARS),
          createdAt: now,
          expiresAt: input.expiresAt,
          scope: input.scope,
        })
        .returning();
      const saved = returned(row);
      return {
        id: saved.id,
        name: saved.name,
        token,
        createdAt: saved.createdAt.toISOString(),
        expiresAt: saved.expiresAt.toISOString(),
        scope: scopeOf(saved.scope),
        prefix: `${saved.prefix}…`,
      };
    },

    /**
     * Tokens that expire before `until` and have not expired yet, whose owner was not told: marked told in the same
     * statement, so two processes never mail the same notice twice.
     */
    async claimExpiring(now: Date, until: Date): Promise<ExpiringToken[]> {
      const rows = await db.execute<{ id: number; name: string; prefix: string; expires_at: Date; email: string }>(sql`
        UPDATE api_tokens t SET expiry_notice_at = ${now}
        FROM users u
        WHERE u.id = t.user_id AND t.expiry_notice_at IS NULL AND t.expires_at > ${now} AND t.expires_at <= ${until}
        RETURNING t.id, t.name, t.prefix, t.expires_at, u.email`);
      return rows.rows.map((r) => ({ id: r.id, name: r.name, prefix: `${r.prefix}…`, expiresAt: new Date(r.expires_at), email: r.email }));
    },

    /** Deletes tokens that expired more than `before` ago (kept a while so their owners see why they stopped). */
    async deleteExpired(before: Date): Promise<number> {
      const deleted = await db.delete(apiTokens).where(lt(apiTokens.expiresAt, before)).returning({ id: apiTokens.id });
      return deleted.length;
    },

    /** False when the id is unknown or another user's. */
    /** Revokes every token of the user; returns how many there were. */
    async revokeAllOwn(userId: number): Promise<number> {
      const deleted = await db.delete(apiTokens).where(eq(apiTokens.userId, userId)).returning({ id: apiTokens.id });
      return deleted.length;
    },
    async revokeOwn(userId: number, id: number): Promise<boolean> {
      const deleted = await db
        .delete(apiTokens)
        .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
        .returning({ id: apiTokens.id });
      return deleted.length > 0;
    },
  };
}
