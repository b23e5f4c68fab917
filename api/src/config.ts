import { z } from 'zod';
import { FAST_PATH_PARTS, type FastPathPart } from './http/fast-path/parts.js';
import { LAST_VISIT_UPDATE_SECONDS_DEFAULT } from '@radar/contracts';
import { relevanceConfigErrors, relevanceConfigKeys } from './config-relevance.js';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean),
);
const ms = z.coerce.number().int().positive();

/** A current desktop Chrome on Windows: what the roadmap endpoint expects to see (see ROADMAP_USER_AGENT). */
export const DEFAULT_BROWSER_USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

/**
 * Every setting the api reads, from the environment: one key each, with its default and, in its meta, what it means
 * (`description`) and, where the default is worked out at start, how to show it (`shownDefault`). docs/configuration.md
 * is generated from this (`npm run docs:config`); a test fails when it is stale. A bad value stops the process at
 * start with a message naming the key.
 */
export const configSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('production')
    .meta({ description: '`development` shows error details and enables impersonation by default' }),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080).meta({ description: 'HTTP port' }),
  HOST: z.string().default('0.0.0.0').meta({ description: 'interface to listen on' }),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .meta({ description: 'PostgreSQL URL; without it the embedded PostgreSQL is started with data in `DATA_DIR/postgres`' }),
  DATA_DIR: z
    .string()
    .default('.data')
    .meta({ description: 'embedded database (and its generated password, `postgres-password`), generated secret and other local state' }),
  PUBLIC_URL: z.string().url().optional().meta({
    description:
      'the address users reach; used in e-mail links and the Origin check; `https` makes the session cookie `__Host-radar_session`, Secure, and turns on HSTS',
    shownDefault: 'http://localhost:PORT',
  }),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional().meta({
    description: 'signs mail links (unsubscribe, digest confirmation), keys sign-in code hashes and the outbox encryption key (≥ 32 characters)',
    shownDefault: 'generated into DATA_DIR',
  }),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30).meta({ description: 'idle timeout of a session (sliding: each use extends it)' }),
  SESSION_ABSOLUTE_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(365)
    .default(30)
    .meta({ description: 'absolute lifetime of a session from sign-in, however active' }),
  ADMIN_SECOND_FACTOR: z.enum(['passkey-or-recent-code', 'passkey', 'off']).default('passkey-or-recent-code').meta({
    description:
      "what an admin's session needs for the admin pages, every role-gated (moderator and admin) route and every tenant's posts: `passkey-or-recent-code` (a passkey proved with user verification; an admin without one may use a code sign-in younger than ADMIN_CODE_FRESH_HOURS and is asked to add one), `passkey` (always a passkey), `off`",
  }),
  ADMIN_CODE_FRESH_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 7)
    .default(12)
    .meta({ description: 'with `passkey-or-recent-code`: how long a code sign-in of an admin without a passkey opens the admin pages' }),
  ADMIN_REAUTH_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10)
    .meta({
      description:
        'how long a passkey proof (sign-in or step-up) lets an admin add or remove passkeys, create API tokens and change alert channels or organisation saved searches before asking for the passkey again',
    }),
  ADMIN_SESSION_IDLE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12)
    .meta({ description: 'idle timeout of a session whose user holds Admin' }),
  SMTP_URL: z.string().url().optional().meta({ description: '`smtp://user:pass@host:587` or `smtps://…`; without it mail is kept in the outbox and logged' }),
  MAIL_FROM: z.string().default('M365 Radar <no-reply@m365radar.local>').meta({ description: 'sender of every mail' }),
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(5).meta({
    description: 'SMTP connections kept open and used at once (mails in flight); a large digest goes out this many at a time',
  }),
  ADMIN_EMAILS: csv.default([]).meta({ description: 'comma-separated addresses that get the Admin role when they sign in' }),
  SUPPORT_EMAIL: z.string().default('support@m365radar.example').meta({ description: 'shown in the footer' }),
  SISTER_PRODUCT_URL: z
    .string()
    .url()
    .default('https://www.microsoft.com/microsoft-365/roadmap')
    .meta({ description: "the footer's link to the sister product" }),
  SISTER_PRODUCT_NAME: z.string().default('AI at Work Roadmap').meta({ description: "the footer's name of the sister product" }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').meta({ description: 'pino level' }),
  TRUST_PROXY: z
    .string()
    .default('false')
    .meta({ description: 'Express trust proxy behind a load balancer (a hop count such as `1`); without it `X-Forwarded-For` is ignored' }),
  BODY_LIMIT: z.string().default('1mb').meta({ description: 'largest request body' }),
  STATIC_ROOT: z.string().optional().meta({ description: 'where `shell/dist` and `mfe-*/dist` are', shownDefault: 'repository root' }),
  REMOTE_DASHBOARD_URL: z.string().optional().meta({
    description:
      'the dashboard remote\'s initial `mf-manifest.json` URL (e.g. on a CDN); admins change it in Admin → Remotes without a restart (docs/operations.md, "Releasing a remote")',
    shownDefault: 'served by the api',
  }),
  REMOTE_ADMIN_URL: z
    .string()
    .optional()
    .meta({ description: "the admin remote's initial `mf-manifest.json` URL; as REMOTE_DASHBOARD_URL", shownDefault: 'served by the api' }),
  REMOTE_DIGEST_URL: z
    .string()
    .optional()
    .meta({ description: "the weekly digest remote's initial `mf-manifest.json` URL; as REMOTE_DASHBOARD_URL", shownDefault: 'served by the api' }),
  REMOTE_MANIFEST_TIMEOUT_MS: ms
    .max(60_000)
    .default(5000)
    .meta({ description: "how long the api waits for a remote's manifest (Admin → Remotes: version and Test)" }),
  IMPERSONATION_ENABLED: bool.optional().meta({
    description: 'role impersonation tool; when off its routes answer 404; on with `NODE_ENV=production` it logs a warning at every start',
    shownDefault: 'on in development only',
  }),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1).meta({
    description:
      'HTTP worker processes (node:cluster) sharing `PORT`, e.g. the number of cores; the first process keeps the embedded database, migrations and jobs (docs/operations.md)',
  }),
  SERVER_RENDER: bool.default(true).meta({
    description:
      "Render a guest's `/` and `/dashboard` (default list) on the server and hydrate them in the browser; `false`: every page renders in the browser (docs/frontend.md)",
  }),
  JOBS_ENABLED: bool.default(true).meta({ description: 'run Agenda jobs in this process (turn off on web-only replicas)' }),
  SIGN_IN_CODE_TTL_MINUTES: z.coerce.number().int().min(1).max(60).default(10).meta({ description: 'sign-in code lifetime' }),
  SIGN_IN_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5).meta({ description: 'wrong tries before a code is burnt' }),
  SIGN_IN_SENDS_PER_EMAIL: z.coerce
    .number()
    .int()
    .min(1)
    .default(5)
    .meta({ description: 'sign-in codes sent per e-mail address per SIGN_IN_RATE_WINDOW_MINUTES' }),
  SIGN_IN_SENDS_PER_IP: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .meta({ description: 'sign-in codes sent per client address (an IPv6 /64 counts as one) per SIGN_IN_RATE_WINDOW_MINUTES' }),
  SIGN_IN_RATE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15).meta({ description: 'the window of the sign-in rate limits' }),
  SIGN_IN_WRONG_CODES_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .meta({ description: 'wrong codes per account per hour (across all its codes) before a cool-down' }),
  SIGN_IN_VERIFY_FAILURES_PER_IP: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .meta({ description: 'failed code verifications per client address per `SIGN_IN_RATE_WINDOW_MINUTES`' }),
  DIGEST_CONFIRM_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(48)
    .meta({ description: 'how long a weekly-digest confirmation link works; unconfirmed visitor sign-ups are deleted after it' }),
  ROADMAP_V2_URL: z
    .union([z.literal('off'), z.string().url()])
    .default('https://www.microsoft.com/releasecommunications/api/v2/m365')
    .meta({ description: "the roadmap's v2 API (OData, paged), the first source of the roadmap chain; `off` leaves it out" }),
  ROADMAP_FEED_URL: z
    .string()
    .url()
    .default('https://www.microsoft.com/releasecommunications/api/v1/m365')
    .meta({ description: "the roadmap's v1 JSON feed, read when the v2 API is refused, missing or broken" }),
  ROADMAP_USER_AGENT: z.string().trim().min(1).default(DEFAULT_BROWSER_USER_AGENT).meta({
    description: 'User-Agent of roadmap requests: the JSON endpoint answers 403 to clients that do not look like a browser',
    shownDefault: "a desktop Chrome's",
  }),
  ROADMAP_RSS_URL: z
    .union([z.literal('off'), z.string().url()])
    .default('https://www.microsoft.com/releasecommunications/api/v2/M365/rss')
    .meta({ description: 'the official RSS feed, read when both JSON sources are refused or broken; `off` disables the fallback' }),
  SYNC_MAX_REMOVED_PERCENT: z.coerce.number().min(0).max(100).default(10).meta({
    description:
      "snapshot guard: a snapshot that is empty or would mark more than this share of a source's live items removed is held for an admin (Sync History: Apply anyway / Discard); `100` checks only for empty",
  }),
  SYNC_MIN_REMOVED_ITEMS: z.coerce.number().int().min(1).max(100_000).default(25).meta({
    description:
      'snapshot guard floor: a snapshot is held only when it would also remove at least this many live items (a small source losing 2 is applied whatever the share)',
  }),
  GRAPH_TENANT_ID: z.string().optional().meta({
    description:
      'directory (tenant) id of the Entra app that reads Message Center (application permission `ServiceMessage.Read.All`); GRAPH_TENANT_ID, GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET: all three or none. They become the public tenant "Primary tenant" at start (more tenants: Admin → Tenants; docs/operations.md, "Tenants")',
  }),
  GRAPH_CLIENT_ID: z.string().optional().meta({ description: 'application (client) id of that Entra app' }),
  GRAPH_CLIENT_SECRET: z.string().optional().meta({ description: 'client secret of that Entra app' }),
  GRAPH_AUTHORITY_URL: z
    .string()
    .url()
    .default('https://login.microsoftonline.com')
    .meta({ description: 'the sign-in host for Graph tokens (sovereign clouds, tests)' }),
  GRAPH_API_URL: z.string().url().default('https://graph.microsoft.com').meta({ description: 'the Graph host (sovereign clouds, tests)' }),
  GRAPH_CLOUD_URLS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value?.trim()) return {};
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON, e.g. {"gcchigh":{"authorityUrl":"https://…","graphUrl":"https://…"}}' });
        return z.NEVER;
      }
      const hosts = z.object({ authorityUrl: z.string().url(), graphUrl: z.string().url() });
      const result = z.partialRecord(z.enum(['gcchigh', 'dod']), hosts).safeParse(parsed);
      if (!result.success) {
        ctx.addIssue({ code: 'custom', message: `must map gcchigh and/or dod to { authorityUrl, graphUrl }: ${result.error.issues[0]?.message ?? ''}` });
        return z.NEVER;
      }
      return result.data;
    })
    .meta({
      description:
        'sign-in and Graph hosts of the GCC High and DoD clouds, when they must differ from Microsoft\'s (a proxy, tests), as JSON: `{"gcchigh":{"authorityUrl":"…","graphUrl":"…"}}`; Worldwide and GCC tenants use GRAPH_AUTHORITY_URL and GRAPH_API_URL',
    }),
  GRAPH_MAX_CONCURRENT_TENANTS: z.coerce.number().int().min(1).max(64).default(4).meta({
    description: 'tenants whose Message Center one process reads at once; a failing or throttled tenant never delays the others beyond this',
  }),
  ...relevanceConfigKeys,
  FEED_TIMEOUT_MS: ms.default(30_000).meta({ description: 'timeout of one feed request' }),
  FEED_RETRIES: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(3)
    .meta({ description: 'retries of a failed feed request (transient failures, with exponential backoff)' }),
  ROADMAP_SYNC_INTERVAL_MS: ms
    .default(60 * 60 * 1000)
    .meta({ description: 'how often the roadmap is synced (requests are conditional: an unchanged feed costs a 304)' }),
  MESSAGE_SYNC_INTERVAL_MS: ms.default(60 * 60 * 1000).meta({ description: 'how often Message Center is synced' }),
  DEMO_DATA: z
    .enum(['auto', 'off'])
    .default('auto')
    .meta({ description: '`auto`: load the shipped demo data when the database is empty and the feed is unreachable; `off`: never' }),
  LAST_VISIT_UPDATE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(LAST_VISIT_UPDATE_SECONDS_DEFAULT).meta({
    description:
      '"since your last visit": a signed-in user\'s dashboard visit is written at most this often; sooner visits keep the previous baseline (0–86400)',
  }),
  FAST_PATH: z
    .string()
    .default('all')
    .transform((value, ctx) => {
      const words = value
        .split(',')
        .map((w) => w.trim().toLowerCase())
        .filter(Boolean);
      if (words.length === 1 && words[0] === 'all') return [...FAST_PATH_PARTS];
      if (words.length === 1 && words[0] === 'off') return [];
      const unknown = words.filter((w) => !(FAST_PATH_PARTS as readonly string[]).includes(w));
      if (unknown.length > 0) {
        ctx.addIssue({ code: 'custom', message: `unknown part ${unknown.join(', ')}: use all, off, or a comma list of ${FAST_PATH_PARTS.join(', ')}` });
        return z.NEVER;
      }
      return words as FastPathPart[];
    })
    .meta({
      description:
        'where the api steps around Express for speed (docs/fast-path.md): `all` or `list-lane` (anonymous list answers, cached or made, before Express), or `off`; answers are the same either way',
      shownDefault: 'all',
    }),
  LIST_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32).meta({
    description: 'memory per process for whole answers of the dashboard list, kept per query, audience and data version (never stale); `0` turns it off',
  }),
  DIGEST_SEND_HOUR: z.coerce.number().int().min(0).max(23).default(8).meta({ description: 'the hour the weekly digest is sent on Sundays' }),
  DIGEST_TIMEZONE: z.string().default('UTC').meta({ description: 'the IANA time zone of DIGEST_SEND_HOUR' }),
  DB_POOL_MAX: z.coerce.number().int().min(4).max(200).default(10).meta({ description: 'database pool size (connections per process)' }),
  DB_ACQUIRE_TIMEOUT_MS: ms.default(5_000).meta({ description: 'how long a request waits for a pooled connection before it answers `503`' }),
  READY_POOL_EXHAUSTED_MS: z.coerce.number().int().min(0).max(600_000).default(10_000).meta({
    description:
      '`/readyz` answers `503` only once the pool has had no connection to give for this long (a burst must not take every replica out of the load balancer); `0`: at once',
  }),
  DB_STATEMENT_TIMEOUT_MS: ms.default(30_000).meta({ description: 'the longest statement the api runs' }),
  EXPORT_MAX_PER_CLIENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .default(2)
    .meta({ description: 'CSV downloads at once per client address (an IPv6 /64 is one client; more answer `429`)' }),
  EXPORT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(100).default(4).meta({
    description:
      'CSV downloads at once in all (more answer `503`); guests may hold all but one of them, so a signed-in user can always start one; must leave 2 of DB_POOL_MAX to other requests',
  }),
  EXPORT_IDLE_TIMEOUT_MS: ms.default(30_000).meta({ description: 'how long a download may make no progress (the client stopped reading) before it is cut' }),
  EXPORT_MAX_DURATION_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60_000)
    .meta({ description: 'the longest a CSV download may run, however steadily it is read, before it is cut (`0`: no cap)' }),
  SHUTDOWN_TIMEOUT_MS: ms
    .default(20_000)
    .meta({ description: 'on SIGTERM/SIGINT, how long requests, jobs and syncs in progress get to finish before they are cut' }),
  MAIL_RETRY_BASE_MS: ms.default(60_000).meta({ description: 'first retry delay of a mail the SMTP server refused (doubling, at most 6 h)' }),
  TRACKER_RETRY_BASE_MS: ms
    .default(60_000)
    .meta({ description: 'first retry delay of a call to a work tracker (Planner, Jira, ServiceNow) that failed (doubling, at most 6 h)' }),
  CACHE_MISS_BUDGET: z.coerce.number().int().min(0).default(120).meta({
    description:
      'answers no cache could give (new list pages and searches, feeds, version compares, histories, MCP tool calls) one client (token, user, or network) may ask for a minute before 429 with Retry-After; cached answers never count (`0`: no budget)',
  }),
  ATLASSIAN_AUTH_URL: z.string().url().default('https://auth.atlassian.com').meta({
    description: "Atlassian's OAuth 2.0 (3LO) authorization server, for Jira trackers that sign in with OAuth (tests point elsewhere)",
  }),
  ATLASSIAN_API_URL: z.string().url().default('https://api.atlassian.com').meta({
    description: "Atlassian's API gateway that OAuth-signed-in Jira calls go through (`/ex/jira/{cloudId}/…`; tests point elsewhere)",
  }),
  ALLOW_PRIVATE_WEBHOOKS: bool.default(false).meta({
    description:
      "`true` lets alert webhooks use plain `http` and private, loopback and metadata addresses (the SSRF guard's two rules); for tests and on-premises receivers only (warned at a production start)",
  }),
  WEBHOOK_TIMEOUT_MS: ms.max(120_000).default(10_000).meta({ description: 'per attempt of an alert webhook delivery (at most 120000)' }),
  AI_BASE_URL: z.string().url().optional().meta({
    description:
      'OpenAI-compatible chat-completions endpoint for the admin AI summary and triage suggestions; without it the summary is extractive and suggestions come from the triage rules and past assignments',
  }),
  AI_API_KEY: z.string().optional().meta({ description: 'the key for AI_BASE_URL' }),
  AI_MODEL: z.string().default('gpt-4o-mini').meta({ description: 'the model asked at AI_BASE_URL' }),
  AI_TIMEOUT_MS: ms.default(30_000).meta({ description: 'timeout of one AI request (a summary or a triage suggestion)' }),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws ConfigError listing every bad key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const graphKeys = [parsed.data.GRAPH_TENANT_ID, parsed.data.GRAPH_CLIENT_ID, parsed.data.GRAPH_CLIENT_SECRET];
  if (graphKeys.some(Boolean) && !graphKeys.every(Boolean)) {
    throw new ConfigError('Invalid configuration:\n  GRAPH_TENANT_ID, GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET must be set together');
  }
  if (parsed.data.EXPORT_MAX_CONCURRENT > parsed.data.DB_POOL_MAX - 2) {
    throw new ConfigError(
      `Invalid configuration:\n  EXPORT_MAX_CONCURRENT: must leave at least 2 of the DB_POOL_MAX (${parsed.data.DB_POOL_MAX}) connections to other requests`,
    );
  }
  const relevance = relevanceConfigErrors(parsed.data);
  if (relevance.length) throw new ConfigError(`Invalid configuration:\n${relevance.join('\n')}`);
  return parsed.data;
}

export function impersonationEnabled(config: Config): boolean {
  return config.IMPERSONATION_ENABLED ?? config.NODE_ENV === 'development';
}

export function graphConfigured(config: Config): boolean {
  return Boolean(config.GRAPH_TENANT_ID && config.GRAPH_CLIENT_ID && config.GRAPH_CLIENT_SECRET);
}

/**
 * Settings that weaken security, logged as warnings at every start (main.ts) so an operator cannot miss them.
 */
export function securityWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.NODE_ENV === 'production' && impersonationEnabled(config)) {
    warnings.push(
      'IMPERSONATION_ENABLED is on with NODE_ENV=production: every admin can switch their session to another role (a development tool). Unset it for production.',
    );
  }
  if (config.NODE_ENV === 'production' && !config.SMTP_URL) {
    warnings.push('SMTP_URL is not set: no mail is sent, and every mail — sign-in codes included — is written to the log instead.');
  }
  const behindProxy = !['false', '0', ''].includes(config.TRUST_PROXY.trim().toLowerCase());
  if (config.NODE_ENV === 'production' && behindProxy && !config.PUBLIC_URL?.startsWith('https://')) {
    warnings.push(
      `TRUST_PROXY is set but PUBLIC_URL is ${config.PUBLIC_URL ? `not https (${config.PUBLIC_URL})` : 'not set'}: session cookies are sent without Secure and HSTS is off, so a network attacker can read them. Set PUBLIC_URL=https://… (the address users open).`,
    );
  }
  if (config.NODE_ENV === 'production' && config.ALLOW_PRIVATE_WEBHOOKS) {
    warnings.push(
      'ALLOW_PRIVATE_WEBHOOKS is on: alert webhooks may use plain http and reach private, loopback and cloud metadata addresses. Use it only for on-premises receivers.',
    );
  }
  return warnings;
}
