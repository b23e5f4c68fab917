import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local Microsoft Graph (and Entra token endpoint) for many tenants at once, as the service-communications API
 * behaves: `POST /{tenant}/oauth2/v2.0/token` (client credentials; a wrong secret answers Entra's AADSTS7000215),
 * `GET /v1.0/admin/serviceAnnouncement/messages` (paged with @odata.nextLink, `$top`), the attachment list, and
 * `GET /v1.0/admin/serviceAnnouncement/issues` (paged; 403 without ServiceHealth.Read.All) and an issue's
 * `incidentReport` (404 until one is published). The token is a JWT whose `tid`
 * says which tenant's data a call reads and whose `roles` are the application permissions granted. A tenant can be
 * made to throttle (429 with Retry-After) or to have its secret revoked.
 */
export interface FakeTenant {
  directoryId: string;
  clientId: string;
  secret: string;
  /** Application permissions granted with admin consent (default the two read permissions and Organization.Read.All). */
  roles?: string[];
  /** Graph's raw message objects this tenant's Message Center lists. */
  messages: unknown[];
  /** Graph's raw serviceHealthIssue objects this tenant's Service Health lists (paged like the messages). */
  issues?: unknown[];
  /** Graph's healthOverviews of the tenant (service and status). */
  overviews?: { service: string; status: string; id?: string }[];
  /** Graph's subscribedSkus of the tenant (read with Organization.Read.All among `roles`). */
  skus?: unknown[];
  /** Post-incident reports by issue id: what `/issues/{id}/incidentReport` streams (404 for others). */
  reports?: Record<string, { body: Buffer; contentType: string }>;
  /**
   * The next this many message-page or issue-page requests answer 429 with Retry-After: retryAfterSeconds; `feeds`
   * limits it to one feed's pages (default both).
   */
  throttle?: { times: number; retryAfterSeconds: number; feeds?: ('messages' | 'issues')[] };
  /** The secret was revoked: the token endpoint refuses it. */
  revoked?: boolean;
}

export interface TenantGraphServer {
  url: string;
  tenants: Map<string, FakeTenant>;
  /** Requests seen, e.g. `contoso POST /token`, `contoso GET /messages?page=1`, `contoso GET /messages 429`. */
  requests: string[];
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const ALL_ROLES = ['ServiceMessage.Read.All', 'ServiceHealth.Read.All', 'Organization.Read.All'];

export async function startTenantGraphServer(tenants: FakeTenant[], options: { pageSize?: number } = {}): Promise<TenantGraphServer> {
  const byId = new Map(tenants.map((t) => [t.directoryId, t]));
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const pageSize = options.pageSize ?? 100;
  let base = '';
  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  const tenantOfToken = (req: http.IncomingMessage): FakeTenant | null => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const payload = token?.split('.')[1];
    if (!payload) return null;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { tid?: string };
      return byId.get(claims.tid ?? '') ?? null;
    } catch {
      return null;
    }
  };

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
      if (req.method === 'POST' && token) {
        const tenant = byId.get(decodeURIComponent(token[1]!));
        const form = new URLSearchParams(body);
        requests.push(`${tenant?.directoryId ?? token[1]} POST /token`);
        if (!tenant) return json(res, 400, { error: 'invalid_request', error_description: 'AADSTS90002: Tenant not found.' });
        if (form.get('client_id') !== tenant.clientId)
          return json(res, 400, {
            error: 'unauthorized_client',
            error_description: `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found.`,
          });
        if (tenant.revoked || form.get('client_secret') !== tenant.secret)
          return json(res, 401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
        const jwt = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ tid: tenant.directoryId, roles: tenant.roles ?? ALL_ROLES })}.sig`;
        return json(res, 200, { token_type: 'Bearer', expires_in: 3599, access_token: jwt });
      }
      const tenant = tenantOfToken(req);
      const name = tenant?.directoryId ?? '?';
      if (!tenant) return json(res, 401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty or invalid.' } });
      const roles = tenant.roles ?? ALL_ROLES;
      if (req.method === 'GET' && url.pathname === '/v1.0/admin/serviceAnnouncement/messages') {
        const page = Number(url.searchParams.get('$skiptoken') ?? '1');
        if (tenant.throttle && tenant.throttle.times > 0 && (tenant.throttle.feeds ?? ['messages']).includes('messages')) {
          tenant.throttle.times--;
          requests.push(`${name} GET /messages 429`);
          return json(
            res,
            429,
            { error: { code: 'TooManyRequests', message: 'Too many requests' } },
            { 'retry-after': String(tenant.throttle.retryAfterSeconds) },
          );
        }
        requests.push(`${name} GET /messages?page=${page}`);
        if (tenant.revoked) return json(res, 401, { error: { code: 'InvalidAuthenticationToken' } });
        if (!roles.includes('ServiceMessage.Read.All'))
          return json(res, 403, { error: { code: 'UnknownError', message: 'Insufficient privileges to complete the operation.' } });
        const size = Math.min(pageSize, Number(url.searchParams.get('$top') ?? pageSize));
        const slice = tenant.messages.slice((page - 1) * size, page * size);
        const more = page * size < tenant.messages.length && !url.searchParams.has('$top');
        return json(res, 200, {
          value: slice,
          ...(more ? { '@odata.nextLink': `${base}/v1.0/admin/serviceAnnouncement/messages?$skiptoken=${page + 1}` } : {}),
        });
      }
      if (req.method === 'GET' && /^\/v1\.0\/admin\/serviceAnnouncement\/messages\/[^/]+\/attachments$/.test(url.pathname)) {
        requests.push(`${name} GET /attachments`);
        return json(res, 200, { value: [] });
      }
      if (req.method === 'GET' && url.pathname === '/v1.0/admin/serviceAnnouncement/issues') {
        const page = Number(url.searchParams.get('$skiptoken') ?? '1');
        if (tenant.throttle && tenant.throttle.times > 0 && (tenant.throttle.feeds ?? ['issues']).includes('issues')) {
          tenant.throttle.times--;
          requests.push(`${name} GET /issues 429`);
          return json(
            res,
            429,
            { error: { code: 'TooManyRequests', message: 'Too many requests' } },
            { 'retry-after': String(tenant.throttle.retryAfterSeconds) },
          );
        }
        requests.push(`${name} GET /issues?page=${page}`);
        if (tenant.revoked) return json(res, 401, { error: { code: 'InvalidAuthenticationToken' } });
        if (!roles.includes('ServiceHealth.Read.All'))
          return json(res, 403, { error: { code: 'UnknownError', message: 'Insufficient privileges to complete the operation.' } });
        const issues = tenant.issues ?? [];
        const size = Math.min(pageSize, Number(url.searchParams.get('$top') ?? pageSize));
        const more = page * size < issues.length && !url.searchParams.has('$top');
        return json(res, 200, {
          value: issues.slice((page - 1) * size, page * size),
          ...(more ? { '@odata.nextLink': `${base}/v1.0/admin/serviceAnnouncement/issues?$skiptoken=${page + 1}` } : {}),
        });
      }
      if (req.method === 'GET' && url.pathname === '/v1.0/admin/serviceAnnouncement/healthOverviews') {
        requests.push(`${name} GET /healthOverviews`);
        if (!roles.includes('ServiceHealth.Read.All')) return json(res, 403, { error: { code: 'UnknownError' } });
        return json(res, 200, { value: tenant.overviews ?? [] });
      }
      if (req.method === 'GET' && url.pathname === '/v1.0/subscribedSkus') {
        requests.push(`${name} GET /subscribedSkus`);
        if (!roles.includes('Organization.Read.All'))
          return json(res, 403, { error: { code: 'Authorization_RequestDenied', message: 'Insufficient privileges.' } });
        return json(res, 200, { value: tenant.skus ?? [] });
      }
      const report = /^\/v1\.0\/admin\/serviceAnnouncement\/issues\/([^/]+)\/incidentReport$/.exec(url.pathname);
      if (req.method === 'GET' && report) {
        const id = decodeURIComponent(report[1]!);
        requests.push(`${name} GET /incidentReport ${id}`);
        if (!roles.includes('ServiceHealth.Read.All')) return json(res, 403, { error: { code: 'UnknownError' } });
        const file = tenant.reports?.[id];
        if (!file) return json(res, 404, { error: { code: 'NotFound', message: 'The post-incident report is not available.' } });
        return void res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.body.length) }).end(file.body);
      }
      res.writeHead(404).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    tenants: byId,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
