import { z } from 'zod';
import { LAST_VISIT_UPDATE_SECONDS_DEFAULT } from '@radar/contracts';

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
 * Every setting the api reads, from the environment. One key each, with its default; README lists them all.
 * A bad value stops the process at start with a message naming the key.
 */
export const configSchema = z.object({
  /** development | production | test. Production hides error details and turns impersonation off by default. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  /** HTTP port. */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Interface to listen on. */
  HOST: z.string().default('0.0.0.0'),
  /** PostgreSQL URL. Without it the api starts its own embedded PostgreSQL with data under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** Where the embedded database, the generated session secret and other local state live. */
  DATA_DIR: z.string().default('.data'),
  /** The address users reach the product at; used in e-mail links and for the Origin check. */
  PUBLIC_URL: z.string().url().optional(),
  /** Signs unsubscribe tokens. Without it a random secret is generated once and kept in DATA_DIR. */
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  /** Idle timeout of a session (sliding: use extends it), for accounts without the Admin role. */
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Absolute lifetime of a session from sign-in, however active it is; then the user signs in again. */
  SESSION_ABSOLUTE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Idle timeout of a session whose user really holds Admin (shorter: an admin session is worth more). */
  ADMIN_SESSION_IDLE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  /** SMTP server for outgoing mail (smtp://user:pass@host:587 or smtps://…). Without it mail is kept in the outbox and logged. */
  SMTP_URL: z.string().url().optional(),
  /** Sender of every mail. */
  MAIL_FROM: z.string().default('M365 Radar <no-reply@m365radar.local>'),
  /** Comma-separated e-mails that get the Admin role when they sign in. */
  ADMIN_EMAILS: csv.default([]),
  /** Support address shown in the footer. */
  SUPPORT_EMAIL: z.string().default('support@m365radar.example'),
  /** The sister product linked from the footer. */
  SISTER_PRODUCT_URL: z.string().url().default('https://www.microsoft.com/microsoft-365/roadmap'),
  SISTER_PRODUCT_NAME: z.string().default('AI at Work Roadmap'),
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Express "trust proxy" (hops or true/false); set it behind a load balancer so client addresses are right. */
  TRUST_PROXY: z.string().default('false'),
  /** Largest JSON body accepted. */
  BODY_LIMIT: z.string().default('1mb'),
  /** Where the built front-end bundles are (shell/dist and each mfe-NAME/dist). Defaults to the repository root. */
  STATIC_ROOT: z.string().optional(),
  /** Override a remote's URL (e.g. a CDN); defaults to the bundle the api serves itself. */
  REMOTE_DASHBOARD_URL: z.string().optional(),
  REMOTE_ADMIN_URL: z.string().optional(),
  REMOTE_DIGEST_URL: z.string().optional(),
  /** How long the api waits for a remote's manifest (Admin → Remotes: version and Test). */
  REMOTE_MANIFEST_TIMEOUT_MS: ms.max(60_000).default(5000),
  /** Role impersonation (a development tool). On in `npm run dev`; off (routes answer 404) otherwise. */
  IMPERSONATION_ENABLED: bool.optional(),
  /**
   * HTTP worker processes (node:cluster). 1: one process does everything. More: the first process owns the embedded
   * PostgreSQL, the migrations and the jobs and forks this many workers that share the port and answer requests.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Render the first screen of the landing page and of the dashboard's default list on the server for guests
   * (http/server-render.ts); off: every page renders in the browser.
   */
  SERVER_RENDER: bool.default(true),
  /** Run Agenda jobs in this process (turn off on web-only replicas). */
  JOBS_ENABLED: bool.default(true),
  /** Sign-in codes: lifetime, wrong tries before the code burns, sends allowed per e-mail and per client per window. */
  SIGN_IN_CODE_TTL_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
  SIGN_IN_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  SIGN_IN_SENDS_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  SIGN_IN_SENDS_PER_IP: z.coerce.number().int().min(1).default(20),
  SIGN_IN_RATE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** Wrong codes per account (all its codes together) per hour before a cool-down; the owner can sign in after it. */
  SIGN_IN_WRONG_CODES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100).default(10),
  /** Failed verifications per client address (an IPv6 /64 counts as one) per SIGN_IN_RATE_WINDOW_MINUTES. */
  SIGN_IN_VERIFY_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
  /** How long a weekly-digest confirmation link works; unconfirmed visitor sign-ups are deleted after it. */
  DIGEST_CONFIRM_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(48),

  /**
   * The roadmap's v2 API (OData, paged), the first source of the roadmap chain; `off` leaves it out, so the v1 JSON
   * feed is read first.
   */
  ROADMAP_V2_URL: z.union([z.literal('off'), z.string().url()]).default('https://www.microsoft.com/releasecommunications/api/v2/m365'),
  /** The roadmap's v1 JSON feed (one array of every item), read when the v2 API is refused or broken. */
  ROADMAP_FEED_URL: z.string().url().default('https://www.microsoft.com/releasecommunications/api/v1/m365'),
  /**
   * User-Agent of roadmap requests. The JSON endpoint answers 403 to clients that do not look like a browser
   * (Node's default `node` included), so the default is a current desktop browser's.
   */
  ROADMAP_USER_AGENT: z.string().trim().min(1).default(DEFAULT_BROWSER_USER_AGENT),
  /** The official RSS feed, read when both JSON sources are refused or broken; `off` disables the fallback. */
  ROADMAP_RSS_URL: z.union([z.literal('off'), z.string().url()]).default('https://www.microsoft.com/releasecommunications/api/v2/M365/rss'),
  /**
   * Snapshot guard: a snapshot that would mark more than this share of a source's live items removed (or an empty
   * one) is held for an admin instead of applied. 100 turns the share check off (empty snapshots are still held).
   */
  SYNC_MAX_REMOVED_PERCENT: z.coerce.number().min(0).max(100).default(10),
  /**
   * Snapshot guard floor: a snapshot is held only when it would also mark at least this many live items removed, so a
   * small source (a tenant with a dozen posts) losing a few is applied whatever the share.
   */
  SYNC_MIN_REMOVED_ITEMS: z.coerce.number().int().min(1).max(100_000).default(25),
  /** Entra app for Microsoft Graph (ServiceMessage.Read.All, application permission). All three or none. */
  GRAPH_TENANT_ID: z.string().optional(),
  GRAPH_CLIENT_ID: z.string().optional(),
  GRAPH_CLIENT_SECRET: z.string().optional(),
  GRAPH_AUTHORITY_URL: z.string().url().default('https://login.microsoftonline.com'),
  GRAPH_API_URL: z.string().url().default('https://graph.microsoft.com'),
  /** Feed request timeout and retries (transient failures, with exponential backoff). */
  FEED_TIMEOUT_MS: ms.default(30_000),
  FEED_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** Sync schedules: both hourly, so a change reaches followers within about an hour (docs/ingestion.md). */
  ROADMAP_SYNC_INTERVAL_MS: ms.default(60 * 60 * 1000),
  MESSAGE_SYNC_INTERVAL_MS: ms.default(60 * 60 * 1000),
  /** auto: load the shipped demo data set when the database is empty and the live feed cannot be reached. off: never. */
  DEMO_DATA: z.enum(['auto', 'off']).default('auto'),

  /**
   * "Since your last visit": a user's dashboard visit is written at most this often (seconds); a visit sooner keeps
   * the previous baseline, so reloads do not reset what counts as new.
   */
  LAST_VISIT_UPDATE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(LAST_VISIT_UPDATE_SECONDS_DEFAULT),

  /**
   * Memory (MB, per process) for whole answers of the dashboard list, kept per query, audience and data version
   * (never stale: any write to item data is a new version). 0 turns the cache off.
   */
  LIST_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),

  /** Weekly digest: sent on Sundays at this hour in this IANA time zone. */
  DIGEST_SEND_HOUR: z.coerce.number().int().min(0).max(23).default(8),
  DIGEST_TIMEZONE: z.string().default('UTC'),

  /** Database pool: connections, how long a request waits for one, and the longest statement the api runs. */
  DB_POOL_MAX: z.coerce.number().int().min(4).max(200).default(10),
  DB_ACQUIRE_TIMEOUT_MS: ms.default(5_000),
  DB_STATEMENT_TIMEOUT_MS: ms.default(30_000),
  /**
   * CSV export: concurrent downloads per client address and in total (each holds a pooled connection for its whole
   * download), and how long a download may make no progress because the client stopped reading before it is cut.
   */
  EXPORT_MAX_PER_CLIENT: z.coerce.number().int().min(1).max(50).default(2),
  EXPORT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(100).default(4),
  EXPORT_IDLE_TIMEOUT_MS: ms.default(30_000),
  /** Graceful shutdown budget: in-flight requests and running jobs get this long before they are cut. */
  SHUTDOWN_TIMEOUT_MS: ms.default(20_000),
  /** First retry delay of a mail the SMTP server refused (doubles per attempt, at most 6 hours). */
  MAIL_RETRY_BASE_MS: ms.default(60_000),

  /**
   * Alert webhooks (Teams, Slack, generic): true lifts the SSRF guard's two rules, https only and no private,
   * loopback, link-local or metadata addresses. For tests and on-premises receivers only.
   */
  ALLOW_PRIVATE_WEBHOOKS: bool.default(false),
  /** Per attempt of a webhook delivery (connect, send, answer). */
  WEBHOOK_TIMEOUT_MS: ms.max(120_000).default(10_000),

  /** OpenAI-compatible chat-completions endpoint for the admin AI summary. Without it the summary is extractive. */
  AI_BASE_URL: z.string().url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().default('gpt-4o-mini'),
  AI_TIMEOUT_MS: ms.default(30_000),
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
  if (config.NODE_ENV === 'production' && config.ALLOW_PRIVATE_WEBHOOKS) {
    warnings.push(
      'ALLOW_PRIVATE_WEBHOOKS is on: alert webhooks may use plain http and reach private, loopback and cloud metadata addresses. Use it only for on-premises receivers.',
    );
  }
  return warnings;
}
