import {
  connectionTestOf,
  OPTIONAL_TENANT_CHECKS,
  TENANT_CLOUD_HOSTS,
  USAGE_PERMISSION,
  type ConnectionTestResult,
  type TenantCheckName,
  type TenantCloud,
} from '@radar/contracts';
import type { Config } from '../../config.js';
import type { TenantRow } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import { createGraphMessagesClient, type GraphMessagesClient } from '../../sources/graph-messages.js';
import { openTenantSecret } from './tenant-secret.js';

/** The sign-in and Graph hosts of a tenant's cloud: the GRAPH_* hosts for Worldwide and GCC, else GRAPH_CLOUD_URLS or Microsoft's. */
export function hostsOf(config: Pick<Config, 'GRAPH_AUTHORITY_URL' | 'GRAPH_API_URL' | 'GRAPH_CLOUD_URLS'>, cloud: TenantCloud) {
  if (cloud === 'worldwide' || cloud === 'gcc') return { authorityUrl: config.GRAPH_AUTHORITY_URL, graphUrl: config.GRAPH_API_URL };
  return config.GRAPH_CLOUD_URLS[cloud] ?? TENANT_CLOUD_HOSTS[cloud];
}

export class TenantSecretUnreadableError extends Error {
  override name = 'TenantSecretUnreadableError';
}

/**
 * One Graph client per tenant, kept while the tenant's row is unchanged so its token is reused across runs (a changed
 * secret or cloud makes a new client).
 */
export function createTenantGraphClients(deps: { config: Config; clock: Clock; log: Logger; secretKey: Buffer }) {
  const clients = new Map<number, { stamp: number; client: GraphMessagesClient }>();
  return {
    clientOf(tenant: TenantRow): GraphMessagesClient {
      const stamp = tenant.updatedAt.getTime();
      const kept = clients.get(tenant.id);
      if (kept && kept.stamp === stamp) return kept.client;
      const secret = openTenantSecret(deps.secretKey, tenant.clientSecretSealed);
      if (!secret) throw new TenantSecretUnreadableError(`${tenant.name} has no readable client secret: enter it again in Admin → Tenants`);
      const hosts = hostsOf(deps.config, tenant.cloud as TenantCloud);
      const client = createGraphMessagesClient({
        tenantId: tenant.directoryId,
        clientId: tenant.clientId ?? undefined,
        clientSecret: secret,
        authorityUrl: hosts.authorityUrl,
        apiUrl: hosts.graphUrl,
        clock: deps.clock,
        timeoutMs: deps.config.FEED_TIMEOUT_MS,
        retries: deps.config.FEED_RETRIES,
        log: deps.log.child({ tenant: tenant.name }),
      });
      clients.set(tenant.id, { stamp, client });
      return client;
    },
    forget(tenantId: number) {
      clients.delete(tenantId);
    },
  };
}
export type TenantGraphClients = ReturnType<typeof createTenantGraphClients>;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Entra's error codes an admin meets while setting up an app, and what to do about each. */
const TOKEN_ERRORS: [RegExp, string][] = [
  [
    /AADSTS7000215/,
    "Wrong client secret: Entra refused it (AADSTS7000215). Copy the secret's Value (not its Secret ID) from the app's Certificates & secrets.",
  ],
  [/AADSTS7000222/, "The client secret has expired (AADSTS7000222): create a new one in the app's Certificates & secrets and enter it here."],
  [
    /AADSTS700016/,
    'No app with this client id in this tenant (AADSTS700016): check the Application (client) ID, and that the app is registered or consented in this tenant.',
  ],
  [/AADSTS90002|AADSTS900023/, 'Entra does not know this tenant (AADSTS90002): check the Directory (tenant) ID and the cloud.'],
  [/AADSTS65001/, 'Admin consent is missing (AADSTS65001): an admin of the tenant must grant consent to the app.'],
];

/**
 * The permissions a Graph token carries: an app token's application permissions (its `roles` claim) or a user token's
 * delegated ones (its `scp` claim, space-separated); null when the token cannot be read.
 */
export function permissionsOf(accessToken: string, claim: 'roles' | 'scp' = 'roles'): string[] | null {
  const payload = accessToken.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { roles?: unknown; scp?: unknown };
    if (claim === 'scp') return typeof claims.scp === 'string' ? claims.scp.split(' ').filter(Boolean) : [];
    return Array.isArray(claims.roles) ? claims.roles.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return null;
  }
}

async function bodyOf(response: Response): Promise<string> {
  try {
    return (await response.text()).slice(0, 4000);
  } catch {
    return '';
  }
}

/**
 * Test connection: a token, then one page of each feed. Each step says what it found or exactly what is missing (a
 * wrong or expired secret, an unknown app or tenant, no admin consent, a missing ServiceMessage.Read.All or
 * ServiceHealth.Read.All, and the optional Organization.Read.All and Reports.Read.All). One attempt each, no retries:
 * the admin is waiting.
 */
export async function testTenantConnection(
  config: Pick<Config, 'GRAPH_AUTHORITY_URL' | 'GRAPH_API_URL' | 'GRAPH_CLOUD_URLS' | 'FEED_TIMEOUT_MS'>,
  tenant: TenantRow,
  secret: string | null,
): Promise<ConnectionTestResult> {
  const checks: { name: TenantCheckName; ok: boolean; message: string }[] = [];
  // Licences and usage are optional: the connection works without them (only the "products we license" filter and
  // relevance do not). A test that stopped early has not shown the feeds can be read, so it is not ok even when what
  // it ran passed.
  const done = () => {
    const result = connectionTestOf(checks, OPTIONAL_TENANT_CHECKS);
    return checks.filter((c) => !OPTIONAL_TENANT_CHECKS.includes(c.name)).length === 3 ? result : { ...result, ok: false };
  };
  if (!secret || !tenant.clientId) {
    checks.push({ name: 'token', ok: false, message: 'No readable client secret is stored: enter it again.' });
    return done();
  }
  const hosts = hostsOf(config, tenant.cloud as TenantCloud);
  const signal = () => AbortSignal.timeout(config.FEED_TIMEOUT_MS);
  const graph = trimSlash(hosts.graphUrl);
  let accessToken: string;
  try {
    const response = await fetch(`${trimSlash(hosts.authorityUrl)}/${encodeURIComponent(tenant.directoryId)}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: tenant.clientId, client_secret: secret, scope: `${graph}/.default` }).toString(),
      signal: signal(),
    });
    const text = await bodyOf(response);
    if (!response.ok) {
      const known = TOKEN_ERRORS.find(([code]) => code.test(text));
      let description = '';
      try {
        description = String((JSON.parse(text) as { error_description?: string }).error_description ?? '').split(/\r?\n/)[0] ?? '';
      } catch {
        description = '';
      }
      checks.push({
        name: 'token',
        ok: false,
        message: known?.[1] ?? `Entra refused the sign-in (HTTP ${response.status})${description ? `: ${description}` : ''}.`,
      });
      return done();
    }
    accessToken = String((JSON.parse(text) as { access_token?: string }).access_token ?? '');
    if (!accessToken) throw new Error('the token answer had no access_token');
  } catch (err) {
    checks.push({ name: 'token', ok: false, message: `Could not get a token from ${new URL(hosts.authorityUrl).host}: ${(err as Error).message}` });
    return done();
  }
  const roles = permissionsOf(accessToken);
  checks.push({
    name: 'token',
    ok: true,
    message:
      roles && roles.length === 0
        ? 'Signed in, but the token carries no application permissions: admin consent is missing or no permission was granted.'
        : 'Signed in with the app.',
  });
  const feeds = [
    { name: 'messages' as const, path: '/v1.0/admin/serviceAnnouncement/messages?$top=1', permission: 'ServiceMessage.Read.All', label: 'Message Center' },
    { name: 'health' as const, path: '/v1.0/admin/serviceAnnouncement/issues?$top=1', permission: 'ServiceHealth.Read.All', label: 'Service Health' },
    { name: 'licences' as const, path: '/v1.0/subscribedSkus', permission: 'Organization.Read.All', label: 'licences' },
    // A usage report answers with a redirect to its download: that answer is enough to know it can be read.
    { name: 'usage' as const, path: "/v1.0/reports/getOffice365ServicesUserCounts(period='D7')", permission: USAGE_PERMISSION, label: 'usage reports' },
  ];
  /** Optional checks say what they are for, so an admin who does not want one can leave it. */
  const optionalFor: Partial<Record<TenantCheckName, string>> = {
    licences: ' (optional: only the "Only products we license" filter needs it)',
    usage: ' (optional: only relevance needs it)',
  };
  for (const feed of feeds) {
    try {
      const response = await fetch(`${graph}${feed.path}`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        redirect: 'manual',
        signal: signal(),
      });
      await bodyOf(response);
      const answered = response.ok || (response.status >= 300 && response.status < 400);
      if (answered && feed.name === 'usage') checks.push({ name: feed.name, ok: true, message: 'Read usage reports (counts work with concealed names).' });
      else if (answered) checks.push({ name: feed.name, ok: true, message: `Read ${feed.label}.` });
      else if (response.status === 401 || response.status === 403) {
        const lacks = roles !== null && !roles.includes(feed.permission);
        const optional = optionalFor[feed.name] ?? '';
        checks.push({
          name: feed.name,
          ok: false,
          message: lacks
            ? `Missing ${feed.permission}${optional}: add it to the app as an application permission and grant admin consent.`
            : `Graph refused ${feed.label} (HTTP ${response.status}): check that ${feed.permission} is granted with admin consent${optional}.`,
        });
      } else if (response.status === 429 || response.status === 503) {
        checks.push({ name: feed.name, ok: false, message: `Graph is throttling or unavailable (HTTP ${response.status}); try again in a minute.` });
      } else checks.push({ name: feed.name, ok: false, message: `Graph answered HTTP ${response.status} for ${feed.label}.` });
    } catch (err) {
      checks.push({ name: feed.name, ok: false, message: `Could not reach ${new URL(graph).host}: ${(err as Error).message}` });
    }
  }
  return done();
}
