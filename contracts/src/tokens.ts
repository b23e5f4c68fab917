import { z } from './zod.js';

/** Every personal API token starts with this, so secret scanners (and people) recognise a leaked one. */
export const API_TOKEN_PREFIX = 'rdr_';
/** Longest token name. */
export const API_TOKEN_NAME_MAX = 100;
/** Tokens one user may hold at a time. */
export const API_TOKENS_PER_USER = 20;

/** POST /api/tokens: a name that says where the token is used ("Outlook on my laptop", "Claude Desktop"). */
export const createApiToken = z.object({
  name: z
    .string({ error: 'Token name is required' })
    .trim()
    .min(1, 'Token name is required')
    .max(API_TOKEN_NAME_MAX, `Token name must be at most ${API_TOKEN_NAME_MAX} characters`),
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
});
export type ApiToken = z.infer<typeof apiToken>;

/** The answer to POST /api/tokens: the only time the token itself is ever shown. */
export const createdApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  token: z.string().startsWith(API_TOKEN_PREFIX),
  createdAt: z.string(),
});
export type CreatedApiToken = z.infer<typeof createdApiToken>;

export const apiTokensResponse = z.array(apiToken);
export type ApiTokensResponse = z.infer<typeof apiTokensResponse>;
