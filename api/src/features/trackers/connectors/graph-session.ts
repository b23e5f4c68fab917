import type { TenantCloud } from '@radar/contracts';
import { TrackerError, trackerMessage, trackerRequest, expectOk, type TrackerHttpOptions, type TrackerResponse } from '../tracker-http.js';
import { permissionsOf } from '../../tenants/tenant-graph.js';

/** A connected tenant's app, as Planner calls sign in with it. */
export interface PlannerTenant {
  directoryId: string;
  name: string;
  cloud: TenantCloud;
  clientId: string;
  clientSecret: string;
  authorityUrl: string;
  graphUrl: string;
}

/** Tokens kept between calls, per tenant app (renewed five minutes before they expire). */
export type GraphTokenCache = Map<string, { token: string; roles: string[]; renewAt: number }>;

const TOKEN_EARLY_RENEW_MS = 5 * 60 * 1000;
const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Graph calls with the tenant app's token (client credentials, kept until five minutes before it expires; a 401
 * fetches a fresh one and tries once more). The hosts are the tenant cloud's, as the operator configured them, so the
 * webhooks' SSRF guard (which is for hosts admins type in) does not apply.
 */
export function createGraphSession(
  tenant: PlannerTenant,
  http: TrackerHttpOptions,
  tokens: GraphTokenCache,
  now: () => number,
  /** Delegated sign-in: the token an admin's authorization gives (renewed by the caller) instead of the app's own. */
  delegated?: () => Promise<string>,
) {
  const graph = trimSlash(tenant.graphUrl);
  const cacheKey = `${tenant.authorityUrl}|${tenant.directoryId}|${tenant.clientId}|${tenant.clientSecret.length}`;

  async function token(fresh = false) {
    if (delegated) {
      const accessToken = await delegated();
      return { token: accessToken, roles: permissionsOf(accessToken, 'scp') ?? [], renewAt: 0 };
    }
    const kept = tokens.get(cacheKey);
    if (kept && !fresh && now() < kept.renewAt) return kept;
    const res = await trackerRequest(
      http,
      'POST',
      `${trimSlash(tenant.authorityUrl)}/${encodeURIComponent(tenant.directoryId)}/oauth2/v2.0/token`,
      {},
      new URLSearchParams({ grant_type: 'client_credentials', client_id: tenant.clientId, client_secret: tenant.clientSecret, scope: `${graph}/.default` }),
    );
    if (res.status !== 200) {
      const said = trackerMessage(res.text);
      const retry = res.status === 429 || res.status >= 500;
      throw new TrackerError(
        `Signing in to ${tenant.name}: ${said || `HTTP ${res.status}`}`,
        res.status,
        retry,
        res.retryAfter,
        res.latencyMs,
        res.text.slice(0, 500),
      );
    }
    const body = JSON.parse(res.text) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new TrackerError(`Signing in to ${tenant.name}: the answer had no token`, res.status, false);
    const lifetime = (body.expires_in ?? 3600) * 1000;
    const entry = {
      token: body.access_token,
      roles: permissionsOf(body.access_token) ?? [],
      renewAt: now() + Math.max(lifetime / 2, lifetime - TOKEN_EARLY_RENEW_MS),
    };
    tokens.set(cacheKey, entry);
    return entry;
  }

  async function call(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TrackerResponse> {
    const send = async (fresh: boolean) =>
      trackerRequest(http, method, `${graph}/v1.0${path}`, { authorization: `Bearer ${(await token(fresh)).token}`, ...headers }, body);
    const res = await send(false);
    return res.status === 401 ? send(true) : res;
  }

  /** Every page of a Graph list, following @odata.nextLink on the Graph host only, at most `maxPages` pages. */
  async function list<T>(path: string, what: string, maxPages = 20): Promise<T[]> {
    const values: T[] = [];
    let next: string | null = path;
    for (let page = 0; next && page < maxPages; page++) {
      const res = await call('GET', next);
      const body: { value?: T[]; '@odata.nextLink'?: string } = expectOk(res, what);
      values.push(...(body.value ?? []));
      const link = body['@odata.nextLink'];
      next = link && link.startsWith(`${graph}/v1.0/`) ? link.slice(`${graph}/v1.0`.length) : null;
    }
    return values;
  }

  return { token, call, list, graph };
}

/** A signed-in Graph session of one tenant app (createGraphSession). */
export type GraphSession = ReturnType<typeof createGraphSession>;
