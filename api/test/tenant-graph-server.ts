import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { usageReport, type FakeUsage } from './tenant-usage-reports.js';

/**
 * A local Microsoft Graph (and Entra token endpoint) for many tenants at once, as the service-communications API
 * behaves: `POST /{tenant}/oauth2/v2.0/token` (client credentials; a wrong secret answers Entra's AADSTS7000215),
 * `GET /v1.0/admin/serviceAnnouncement/messages` (paged with @odata.nextLink, `$top`), the attachment list, and
 * `GET /v1.0/admin/serviceAnnouncement/issues` (paged; 403 without ServiceHealth.Read.All) and an issue's
 * `incidentReport` (404 until one is published), and the usage reports (tenant-usage-reports.ts). The token is a JWT whose `tid`
 * says which tenant's data a call reads and whose `roles` are the application permissions granted. A tenant can be
 * made to throttle (429 with Retry-After) or to have its secret revoked.
 */
export interface FakeTenant {
  directoryId: string;
  clientId: string;
  secret: string;
  /** Application permissions granted with admin consent (default the two read permissions, Organization.Read.All and Reports.Read.All). */
  roles?: string[];
  /** Graph's raw message objects this tenant's Message Center lists. */
  messages: unknown[];
  /** Graph's raw serviceHealthIssue objects this tenant's Service Health lists (paged like the messages). */
  issues?: unknown[];
  /** Graph's healthOverviews of the tenant (service and status). */
  overviews?: { service: string; status: string; id?: string }[];
  /** Graph's subscribedSkus of the tenant (read with Organization.Read.All among `roles`). */
  skus?: unknown[];
  /** The usage reports' rows (read with Reports.Read.All among `roles`; none: the reports have no rows). */
  usage?: FakeUsage;
  /** Post-incident reports by issue id: what `/issues/{id}/incidentReport` streams (404 for others). */
  reports?: Record<string, { body: Buffer; contentType: string }>;
  /**
   * The next this many message-page or issue-page requests answer 429 with Retry-After: retryAfterSeconds; `feeds`
   * limits it to one feed's pages (default both); the usage reports are throttled only when `feeds` names `usage`.
   */
  throttle?: { times: number; retryAfterSeconds: number; feeds?: ('messages' | 'issues' | 'usage')[] };
  /** The secret was revoked: the token endpoint refuses it. */
  revoked?: boolean;
  /** The tenant's Planner and directory, as `/planner/*`, `/groups` and `/users` answer them. */
  planner?: FakePlanner;
  /**
   * The user who consents on the tenant's authorize page (delegated sign-in, the authorization-code flow), and the
   * delegated permissions the tokens carry (`scp`; default Tasks.ReadWrite and User.ReadBasic.All).
   */
  delegated?: { user: { displayName: string; mail: string }; scopes?: string[] };
}

/** A tenant's Microsoft 365 groups with their plans, buckets and tasks, and its users. */
export interface FakePlanner {
  groups: { id: string; displayName: string }[];
  plans: { id: string; title: string; groupId: string }[];
  buckets: { id: string; name: string; planId: string }[];
  users: { id: string; displayName: string; mail: string }[];
  /** Tasks by id, as Graph holds them (the test may complete, reassign or delete one). */
  tasks: Map<string, FakePlannerTask>;
  /** The next this many Planner calls answer 429 with Retry-After: retryAfterSeconds. */
  throttle?: { times: number; retryAfterSeconds: number };
  /** The next this many writes of a task's notes answer 503. */
  failDetails?: number;
  /** Every Planner call answers 503 until cleared (Graph's Planner is down). */
  down?: boolean;
  /** The next task create is carried out, but its answer is lost (the socket closed). */
  cutNextCreate?: boolean;
  /** Writes of a task or its notes whose ETag is stale, answered 412 (the test bumps an ETag to make one). */
  preconditionFailures?: number;
}

export interface FakePlannerTask {
  id: string;
  planId: string;
  bucketId: string;
  title: string;
  percentComplete: number;
  dueDateTime: string | null;
  priority: number;
  assignments: Record<string, unknown>;
  completedBy: { user: { id: string; displayName: string | null } } | null;
  /** The app that made it (Graph's createdBy.application). */
  createdBy: { application: { id: string } | null; user: { id: string } | null };
  etag: number;
  details: { description: string; references: Record<string, unknown>; etag: number };
}

export interface TenantGraphServer {
  url: string;
  tenants: Map<string, FakeTenant>;
  /** Requests seen, e.g. `contoso POST /token`, `contoso GET /messages?page=1`, `contoso GET /messages 429`. */
  requests: string[];
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const ALL_ROLES = ['ServiceMessage.Read.All', 'ServiceHealth.Read.All', 'Organization.Read.All', 'Reports.Read.All'];

let taskSeq = 0;

/**
 * Graph's Planner calls as M365 Radar makes them: groups (Group.Read.All), a group's plans, a plan's buckets and tasks,
 * a task and its details read and written with ETags (If-Match required; a stale one answers 412), users by id and by
 * a filter on mail or userPrincipalName (User.Read.All); writes need Tasks.ReadWrite.All.
 */
function planner(
  p: FakePlanner,
  clientId: string,
  roles: string[],
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  body: string,
  log: (line: string) => void,
) {
  const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
    void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(value === undefined ? undefined : JSON.stringify(value));
  const denied = () => json(403, { error: { code: 'Authorization_RequestDenied', message: 'Insufficient privileges to complete the operation.' } });
  const notFound = () => json(404, { error: { code: 'NotFound', message: 'The requested item is not found.' } });
  const path = url.pathname.slice('/v1.0'.length);
  log(`${req.method} ${path}`);
  if (p.down) return json(503, { error: { code: 'ServiceUnavailable', message: 'The service is unavailable.' } });
  if (p.throttle && p.throttle.times > 0) {
    p.throttle.times--;
    return json(429, { error: { code: 'TooManyRequests', message: 'Too many requests' } }, { 'retry-after': String(p.throttle.retryAfterSeconds) });
  }
  const canRead = ['Tasks.ReadWrite.All', 'Tasks.Read.All', 'Tasks.ReadWrite', 'Tasks.Read'].some((r) => roles.includes(r));
  const canWrite = roles.includes('Tasks.ReadWrite.All') || roles.includes('Tasks.ReadWrite');
  const canReadUsers = ['User.Read.All', 'User.ReadBasic.All'].some((r) => roles.includes(r));
  const taskJson = (t: FakePlannerTask) => {
    const { details: _details, etag, ...rest } = t;
    return { ...rest, '@odata.etag': `W/"task-${etag}"` };
  };
  const detailsJson = (t: FakePlannerTask) => ({
    id: t.id,
    description: t.details.description,
    references: t.details.references,
    previewType: 'automatic',
    '@odata.etag': `W/"details-${t.details.etag}"`,
  });
  /** If-Match must name the current ETag (or *). */
  const matches = (current: string) => {
    const given = req.headers['if-match'];
    if (!given) return (json(400, { error: { code: 'BadRequest', message: 'The If-Match header must be specified for this kind of request.' } }), false);
    if (given !== '*' && given !== current)
      return (json(412, { error: { code: 'PreconditionFailed', message: 'The request does not match the current resource.' } }), false);
    if (p.preconditionFailures && p.preconditionFailures > 0) {
      p.preconditionFailures--;
      return (json(412, { error: { code: 'PreconditionFailed', message: 'The request does not match the current resource.' } }), false);
    }
    return true;
  };
  let m: RegExpExecArray | null;
  if (req.method === 'GET' && path === '/groups') {
    if (!roles.includes('Group.Read.All')) return denied();
    return json(200, { value: p.groups });
  }
  if (req.method === 'GET' && (m = /^\/groups\/([^/]+)\/planner\/plans$/.exec(path))) {
    if (!canRead) return denied();
    return json(200, { value: p.plans.filter((x) => x.groupId === decodeURIComponent(m![1]!)).map((x) => ({ id: x.id, title: x.title })) });
  }
  if (req.method === 'GET' && (m = /^\/planner\/plans\/([^/]+)(\/buckets|\/tasks)?$/.exec(path))) {
    if (!canRead) return denied();
    const plan = p.plans.find((x) => x.id === decodeURIComponent(m![1]!));
    if (!plan) return notFound();
    if (m[2] === '/buckets') return json(200, { value: p.buckets.filter((b) => b.planId === plan.id) });
    if (m[2] === '/tasks') return json(200, { value: [...p.tasks.values()].filter((t) => t.planId === plan.id).map(taskJson) });
    return json(200, { id: plan.id, title: plan.title, container: { containerId: plan.groupId, type: 'group' } });
  }
  if (req.method === 'GET' && (m = /^\/planner\/buckets\/([^/]+)$/.exec(path))) {
    if (!canRead) return denied();
    const bucket = p.buckets.find((b) => b.id === decodeURIComponent(m![1]!));
    return bucket ? json(200, bucket) : notFound();
  }
  if (req.method === 'POST' && path === '/planner/tasks') {
    if (!canWrite) return denied();
    const input = JSON.parse(body) as Partial<FakePlannerTask>;
    if (!p.buckets.some((b) => b.id === input.bucketId && b.planId === input.planId))
      return json(400, { error: { code: 'BadRequest', message: 'The bucket does not belong to the plan.' } });
    const task: FakePlannerTask = {
      id: `task-${++taskSeq}-${Math.random().toString(36).slice(2, 8)}`,
      planId: input.planId!,
      bucketId: input.bucketId!,
      title: input.title ?? '',
      percentComplete: 0,
      dueDateTime: input.dueDateTime ?? null,
      priority: input.priority ?? 5,
      assignments: input.assignments ?? {},
      completedBy: null,
      createdBy: { application: { id: clientId }, user: null },
      etag: 1,
      details: { description: '', references: {}, etag: 1 },
    };
    p.tasks.set(task.id, task);
    if (p.cutNextCreate) {
      p.cutNextCreate = false;
      return void req.socket.destroy();
    }
    return json(201, taskJson(task));
  }
  if ((m = /^\/planner\/tasks\/([^/]+)(\/details)?$/.exec(path))) {
    if (!canRead) return denied();
    const task = p.tasks.get(decodeURIComponent(m[1]!));
    if (!task) return notFound();
    if (req.method === 'GET') return json(200, m[2] ? detailsJson(task) : taskJson(task));
    if (req.method !== 'PATCH') return json(405, { error: { code: 'MethodNotAllowed' } });
    if (!canWrite) return denied();
    const input = JSON.parse(body) as Record<string, unknown>;
    // Graph answers a PATCH with the changed object when asked to (Prefer: return=representation), else 204.
    const representation = /\breturn=representation\b/.test(String(req.headers.prefer ?? ''));
    if (m[2]) {
      if (p.failDetails && p.failDetails > 0) {
        p.failDetails--;
        return json(503, { error: { code: 'ServiceUnavailable', message: 'Service unavailable' } });
      }
      if (!matches(`W/"details-${task.details.etag}"`)) return;
      if (typeof input.description === 'string') task.details.description = input.description;
      const references = Object.entries((input.references as Record<string, unknown>) ?? {});
      task.details.references = Object.fromEntries([
        ...Object.entries(task.details.references).filter(([k]) => !references.some(([r]) => r === k)),
        ...references.filter(([, v]) => v !== null),
      ]);
      task.details.etag++;
      return representation ? json(200, detailsJson(task)) : json(204, undefined);
    }
    if (!matches(`W/"task-${task.etag}"`)) return;
    for (const field of ['title', 'dueDateTime', 'priority', 'percentComplete'] as const) {
      if (field in input) (task as unknown as Record<string, unknown>)[field] = input[field];
    }
    const assignments = Object.entries((input.assignments as Record<string, unknown>) ?? {});
    task.assignments = Object.fromEntries([
      ...Object.entries(task.assignments).filter(([k]) => !assignments.some(([a]) => a === k)),
      ...assignments.filter(([, v]) => v !== null),
    ]);
    task.etag++;
    return representation ? json(200, taskJson(task)) : json(204, undefined);
  }
  if (req.method === 'GET' && path === '/users') {
    if (!canReadUsers) return denied();
    const filter = url.searchParams.get('$filter') ?? '';
    const wanted = [...filter.matchAll(/'((?:[^']|'')*)'/g)].map((x) => x[1]!.replace(/''/g, "'").toLowerCase());
    return json(200, { value: p.users.filter((u) => wanted.includes(u.mail.toLowerCase())).map((u) => ({ id: u.id })) });
  }
  if (req.method === 'GET' && (m = /^\/users\/([^/]+)$/.exec(path))) {
    if (!canReadUsers) return denied();
    const user = p.users.find((u) => u.id === decodeURIComponent(m![1]!));
    return user ? json(200, { ...user, userPrincipalName: user.mail }) : notFound();
  }
  return notFound();
}

export async function startTenantGraphServer(tenants: FakeTenant[], options: { pageSize?: number } = {}): Promise<TenantGraphServer> {
  const byId = new Map(tenants.map((t) => [t.directoryId, t]));
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const pageSize = options.pageSize ?? 100;
  let base = '';
  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  const codes = new Map<string, { tenant: string; redirect: string }>();
  const refreshTokens = new Set<string>();
  let codeSeq = 0;
  const scopesOfToken = (req: http.IncomingMessage): string[] | null => {
    const payload = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]?.split('.')[1];
    try {
      const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as { scp?: string };
      return typeof claims.scp === 'string' ? claims.scp.split(' ') : null;
    } catch {
      return null;
    }
  };
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
      // A report's download URL is pre-authenticated: no tenant, no token.
      if (usageReport(null, [], req, res, url, base, (line) => requests.push(`download ${line}`))) return;
      const authorize = /^\/([^/]+)\/oauth2\/v2\.0\/authorize$/.exec(url.pathname);
      if (req.method === 'GET' && authorize) {
        const tenant = byId.get(decodeURIComponent(authorize[1]!));
        requests.push(`${tenant?.directoryId ?? authorize[1]} GET /authorize`);
        const redirect = url.searchParams.get('redirect_uri') ?? '';
        if (!tenant?.delegated || url.searchParams.get('client_id') !== tenant.clientId) return json(res, 400, { error: 'unauthorized_client' });
        const code = `code-${++codeSeq}`;
        codes.set(code, { tenant: tenant.directoryId, redirect });
        const back = new URLSearchParams({ code, state: url.searchParams.get('state') ?? '' });
        return void res.writeHead(302, { location: `${redirect}?${back.toString()}` }).end();
      }
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
        const grant = form.get('grant_type');
        if (grant === 'authorization_code' || grant === 'refresh_token') {
          const issued = grant === 'authorization_code' ? codes.get(form.get('code') ?? '') : undefined;
          const known = grant === 'authorization_code' ? issued?.redirect === form.get('redirect_uri') : refreshTokens.delete(form.get('refresh_token') ?? '');
          if (!known || !tenant.delegated)
            return json(res, 400, { error: 'invalid_grant', error_description: 'AADSTS70000: The provided grant is invalid or malformed.' });
          codes.delete(form.get('code') ?? '');
          const scp = (tenant.delegated.scopes ?? ['Tasks.ReadWrite', 'User.ReadBasic.All']).join(' ');
          const refresh = `rt-${++codeSeq}`;
          refreshTokens.add(refresh);
          const access = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ tid: tenant.directoryId, scp, n: codeSeq })}.sig`;
          return json(res, 200, { token_type: 'Bearer', expires_in: 3599, access_token: access, refresh_token: refresh, scope: scp });
        }
        const jwt = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ tid: tenant.directoryId, roles: tenant.roles ?? ALL_ROLES })}.sig`;
        return json(res, 200, { token_type: 'Bearer', expires_in: 3599, access_token: jwt });
      }
      const tenant = tenantOfToken(req);
      const name = tenant?.directoryId ?? '?';
      if (!tenant) return json(res, 401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty or invalid.' } });
      // A delegated token's permissions are its scopes; an app's, the tenant's granted roles.
      const scp = scopesOfToken(req);
      const roles = scp ?? tenant.roles ?? ALL_ROLES;
      if (req.method === 'GET' && url.pathname === '/v1.0/me') {
        requests.push(`${name} GET /me`);
        return scp && tenant.delegated
          ? json(res, 200, tenant.delegated.user)
          : json(res, 400, { error: { code: 'BadRequest', message: '/me needs a delegated token' } });
      }
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
      if (usageReport(tenant, roles, req, res, url, base, (line) => requests.push(`${name} ${line}`))) return;
      if (tenant.planner && (url.pathname.startsWith('/v1.0/planner/') || /^\/v1\.0\/(groups|users)/.test(url.pathname))) {
        return planner(tenant.planner, tenant.clientId, roles, req, res, url, body, (line) => requests.push(`${name} ${line}`));
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
