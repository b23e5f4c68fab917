import { and, count, desc, eq } from 'drizzle-orm';
import crypto from 'node:crypto';
import { API_TOKEN_PREFIX, type ApiToken, type CreatedApiToken } from '@radar/contracts';
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

const toApiToken = (row: typeof apiTokens.$inferSelect): ApiToken => ({
  id: row.id,
  name: row.name,
  prefix: `${row.prefix}…`,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
});

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
    async create(userId: number, name: string, now: Date): Promise<CreatedApiToken> {
      const token = newApiToken();
      const [row] = await db
        .insert(apiTokens)
        .values({ userId, name, tokenHash: hashSessionToken(token), prefix: token.slice(0, SHOWN_CHARS), createdAt: now })
        .returning();
      const saved = returned(row);
      return { id: saved.id, name: saved.name, token, createdAt: saved.createdAt.toISOString() };
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
