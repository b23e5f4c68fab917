import { z } from './zod.js';

/** Every personal API token starts with this, so secret scanners (and people) recognise a leaked one. */
export const API_TOKEN_PREFIX = 'rdr_';
/** Longest token name. */
export const API_TOKEN_NAME_MAX = 100;
/** Tokens one user may hold at a time. */
export const API_TOKENS_PER_USER = 20;

/** How long a token lives unless its owner says otherwise, and the longest they may choose. */
export const API_TOKEN_DEFAULT_DAYS = 90;
export const API_TOKEN_MAX_DAYS = 365;
/** The owner is mailed this many days before a token expires. */
export const API_TOKEN_EXPIRY_NOTICE_DAYS = 7;

/**
 * What a token may do: `read` items, feeds and the MCP server; `read_subscriptions` also manage the owner's own
 * subscriptions (follow an item, the weekly digest). Never more than its owner, never admin or moderator rights.
 */
export const API_TOKEN_SCOPES = ['read', 'read_subscriptions'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = { read: 'Read', read_subscriptions: 'Read and manage my subscriptions' };

/** POST /api/tokens: a name that says where the token is used ("Outlook on my laptop", "Claude Desktop"). */
export const createApiToken = z.object({
  name: z
    .string({ error: 'Token name is required' })
    .trim()
    .min(1, 'Token name is required')
    .max(API_TOKEN_NAME_MAX, `Token name must be at most ${API_TOKEN_NAME_MAX} characters`),
  /** Days until it expires (default 90, at most 365). */
  expiresInDays: z.coerce
    .number({ error: 'expiresInDays must be a number of days' })
    .int('expiresInDays must be a whole number of days')
    .min(1, 'expiresInDays must be at least 1')
    .max(API_TOKEN_MAX_DAYS, `expiresInDays must be at most ${API_TOKEN_MAX_DAYS} (a year)`)
    .default(API_TOKEN_DEFAULT_DAYS),
  scope: z.enum(API_TOKEN_SCOPES, { error: `scope must be ${API_TOKEN_SCOPES.join(' or ')}` }).default('read'),
});
export type CreateApiToken = z.input<typeof createApiToken>;

/** A token as its owner sees it in the list: never the secret itself, only its first characters. */
export const apiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the token (`rdr_AbC1…`), to tell tokens apart. */
  prefix: z.string(),
  createdAt: z.string(),
  /** Last request made with the token (updated at most once a minute), or null if never used. */
  lastUsedAt: z.string().nullable(),
  /** The network of that request (a /24 of IPv4, a /48 of IPv6), or null. */
  lastUsedNetwork: z.string().nullable(),
  expiresAt: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
});
export type ApiToken = z.infer<typeof apiToken>;

/** The answer to POST /api/tokens: the only time the token itself is ever shown. */
export const createdApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  token: z.string().startsWith(API_TOKEN_PREFIX),
  createdAt: z.string(),
  expiresAt: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
});
export type CreatedApiToken = z.infer<typeof createdApiToken>;

export const apiTokensResponse = z.array(apiToken);
export type ApiTokensResponse = z.infer<typeof apiTokensResponse>;

/**
 * `?keepTokens=true` on an admin's "end sessions" or "reset passkeys" of a user: their personal API tokens keep
 * working. Without it those actions revoke the tokens too (whoever took over the account may have made some).
 */
export const keepTokensQuery = z.object({
  keepTokens: z
    .enum(['true', 'false'], { error: 'keepTokens must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});
export type KeepTokensQuery = z.infer<typeof keepTokensQuery>;
