import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** An answer the test scripts ahead of the tracker's own (a 429 with Retry-After, a 503, a 401). */
export interface ScriptedFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TrackerCall {
  method: string;
  path: string;
  body: unknown;
}

interface BaseServer {
  url: string;
  /** Every request the server took, in order. */
  calls: TrackerCall[];
  /** The next requests get these answers instead of the tracker's. */
  failNext(...answers: ScriptedFailure[]): void;
  /** The next request to `route` ('POST /rest/api/3/issue') is carried out, but its answer is cut (the socket closed). */
  cutNext(route: string): void;
  /** Every request gets this answer until `up()` (a tracker that is down). */
  down(answer?: ScriptedFailure): void;
  up(): void;
  /** Tears the server down. */
  stop(): Promise<void>;
}

type Handler = (req: { method: string; path: string; query: URLSearchParams; body: unknown; authorization: string }) => {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
};

/** A real HTTP server on 127.0.0.1 answering with `handle`, with scripted failures in front of it. */
async function startServer(handle: Handler): Promise<BaseServer> {
  const calls: TrackerCall[] = [];
  let script: ScriptedFailure[] = [];
  let outage: ScriptedFailure | null = null;
  const cuts: string[] = [];
  const sockets = new Set<Socket>();
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers }).end(text);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      calls.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, body });
      const scripted = script.shift() ?? outage;
      if (scripted) return send(res, scripted.status, scripted.body ?? { errorMessages: [`HTTP ${scripted.status}`] }, scripted.headers);
      const answer = handle({ method: req.method ?? '', path: url.pathname, query: url.searchParams, body, authorization: req.headers.authorization ?? '' });
      const cut = cuts.indexOf(`${req.method} ${url.pathname}`);
      if (cut >= 0) {
        cuts.splice(cut, 1);
        req.socket.destroy();
        return;
      }
      send(res, answer.status, answer.body, answer.headers);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    failNext: (...answers) => void script.push(...answers),
    cutNext: (route) => void cuts.push(route),
    down: (answer = { status: 503, body: { errorMessages: ['Service unavailable'] } }) => {
      outage = answer;
    },
    up: () => {
      outage = null;
      script = [];
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/** An OAuth 2.0 client registered with the tracker (the authorization-code flow with refresh tokens). */
export interface OAuthClientOptions {
  clientId: string;
  clientSecret: string;
  /** The consent page answers access_denied (the admin clicked Deny). */
  deny?: boolean;
  /** The app is registered as requiring PKCE (ServiceNow's "PKCE required"): a consent without a code_challenge is refused. */
  requirePkce?: boolean;
}

/** What the tracker's authorization server saw, and ways to change it. */
export interface OAuthServerState {
  /** Grant types asked at the token endpoint, in order (`authorization_code`, `refresh_token`). */
  grants: string[];
  /** Every access and refresh token stops working, as if the app's access was removed. */
  revokeAll(): void;
}

/**
 * The authorization server part of a tracker: the consent page (answers at once with a redirect to redirect_uri with a
 * code, or access_denied), and the token endpoint (JSON or form; authorization_code once per code and redirect_uri,
 * and with PKCE as Atlassian and ServiceNow check it: a code asked with an S256 code_challenge is traded only with the
 * code_verifier whose SHA-256 it is; refresh_token rotating: a refresh token works once). Access tokens are checked by
 * `bearerOk`.
 */
function oauthServer(client: OAuthClientOptions, paths: { authorize: string; token: string }) {
  const codes = new Map<string, { redirect: string; challenge: string | null }>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  const grants: string[] = [];
  let n = 0;
  const issue = () => {
    n++;
    access.add(`at-${n}`);
    refresh.add(`rt-${n}`);
    return { status: 200, body: { access_token: `at-${n}`, refresh_token: `rt-${n}`, expires_in: 3600, token_type: 'Bearer' } };
  };
  const handle: Handler = ({ method, path, query, body }) => {
    if (method === 'GET' && path === paths.authorize) {
      const redirect = query.get('redirect_uri') ?? '';
      const state = query.get('state') ?? '';
      if (query.get('client_id') !== client.clientId) return { status: 400, body: { error: 'invalid_client' } };
      if (client.deny) {
        const denied = new URLSearchParams({ error: 'access_denied', error_description: 'The user denied access', state });
        return { status: 302, headers: { location: `${redirect}?${denied.toString()}` } };
      }
      const challenge = query.get('code_challenge');
      if (!challenge && client.requirePkce)
        return { status: 400, body: { error: 'invalid_request', error_description: 'code_challenge is required for this client' } };
      if (challenge && query.get('code_challenge_method') !== 'S256')
        return { status: 400, body: { error: 'invalid_request', error_description: 'code_challenge_method must be S256' } };
      const code = `code-${++n}`;
      codes.set(code, { redirect, challenge });
      return { status: 302, headers: { location: `${redirect}?${new URLSearchParams({ code, state }).toString()}` } };
    }
    if (method === 'POST' && path === paths.token) {
      const f = (typeof body === 'string' ? Object.fromEntries(new URLSearchParams(body)) : (body ?? {})) as Record<string, string>;
      grants.push(f.grant_type ?? '');
      if (f.client_id !== client.clientId || f.client_secret !== client.clientSecret)
        return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
      const asked = codes.get(f.code ?? '');
      if (f.grant_type === 'authorization_code' && asked?.redirect === f.redirect_uri) {
        codes.delete(f.code ?? '');
        const proof = f.code_verifier ? crypto.createHash('sha256').update(f.code_verifier).digest('base64url') : null;
        if (asked.challenge && proof !== asked.challenge)
          return { status: 400, body: { error: 'invalid_grant', error_description: 'PKCE verification failed: the code_verifier does not match' } };
        return issue();
      }
      if (f.grant_type === 'refresh_token' && refresh.delete(f.refresh_token ?? '')) return issue();
      return { status: 403, body: { error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' } };
    }
    return { status: 0 };
  };
  const state: OAuthServerState = {
    grants,
    revokeAll: () => {
      access.clear();
      refresh.clear();
    },
  };
  return { handle, bearerOk: (authorization: string) => access.has(authorization.replace(/^Bearer /, '')), state };
}

// ---------------------------------------------------------------------------------------------------- Jira Cloud

export interface JiraIssueState {
  id: string;
  key: string;
  fields: Record<string, unknown>;
  comments: unknown[];
  histories: { author: { displayName: string }; created: string; items: { field: string; to: string }[] }[];
}

export interface JiraServer extends BaseServer {
  issues: Map<string, JiraIssueState>;
  /** With `oauth`: the authorization server's record (the server is also Atlassian's auth server and gateway). */
  oauth: OAuthServerState | null;
  /** Moves the issue to a done status, as `by` would in Jira. */
  close(key: string, by?: string): void;
  reopen(key: string, by?: string): void;
  assign(key: string, email: string | null): void;
  setDue(key: string, date: string | null): void;
  remove(key: string): void;
}

export interface JiraServerOptions {
  email?: string;
  apiToken?: string;
  projectKey?: string;
  issueTypes?: string[];
  /** Permissions the account lacks. */
  without?: string[];
  /** Accounts Jira finds by e-mail. */
  users?: string[];
  /**
   * An OAuth 2.0 (3LO) app: the server also plays auth.atlassian.com (`/authorize`, `/oauth/token`) and
   * api.atlassian.com (`/oauth/token/accessible-resources`, the site under `/ex/jira/{cloudId}`, with Bearer tokens).
   */
  oauth?: OAuthClientOptions & { cloudId?: string };
}

/**
 * Jira Cloud's REST API v3 as M365 Radar uses it: myself, project (with its issue types), mypermissions, user search,
 * search/jql by label, issue create, read (fields and changelog), edit and comment; basic auth with an e-mail and API
 * token. Issues live in memory; the test moves them as a person would in Jira (close, reopen, assign, delete).
 */
export async function startJiraServer(opts: JiraServerOptions = {}): Promise<JiraServer> {
  const email = opts.email ?? 'bot@contoso.com';
  const token = opts.apiToken ?? 'jira-token';
  const project = opts.projectKey ?? 'CHG';
  const types = opts.issueTypes ?? ['Task', 'Story'];
  const users = (opts.users ?? []).map((e, i) => ({ accountId: `acc-${i + 1}`, emailAddress: e, displayName: e.split('@')[0] }));
  const issues = new Map<string, JiraIssueState>();
  let next = 1;
  const now = () => new Date().toISOString().replace('Z', '+0000');
  const status = (done: boolean) => ({ name: done ? 'Done' : 'To Do', statusCategory: { key: done ? 'done' : 'new' } });
  const view = (i: JiraIssueState) => ({ id: i.id, key: i.key, fields: i.fields, changelog: { histories: i.histories } });

  const oauth = opts.oauth ? oauthServer(opts.oauth, { authorize: '/authorize', token: '/oauth/token' }) : null;
  const cloudId = opts.oauth?.cloudId ?? 'cloud-1';
  let siteUrl = '';
  const base = await startServer((req) => {
    const { method, query, body, authorization } = req;
    let { path } = req;
    if (oauth) {
      const answered = oauth.handle(req);
      if (answered.status) return answered;
      if (method === 'GET' && path === '/oauth/token/accessible-resources') {
        if (!oauth.bearerOk(authorization)) return { status: 401, body: { code: 401, message: 'Unauthorized' } };
        return { status: 200, body: [{ id: cloudId, url: siteUrl, name: 'contoso', scopes: ['read:jira-work', 'write:jira-work'] }] };
      }
    }
    const gateway = `/ex/jira/${cloudId}`;
    const viaGateway = path.startsWith(`${gateway}/`);
    if (viaGateway) path = path.slice(gateway.length);
    const signedIn = viaGateway ? Boolean(oauth?.bearerOk(authorization)) : authorization === basic(email, token);
    if (!signedIn) return { status: 401, body: { errorMessages: ['Client must be authenticated to access this resource.'] } };
    if (method === 'GET' && path === '/rest/api/3/myself') return { status: 200, body: { accountId: 'bot', emailAddress: email, displayName: 'Radar Bot' } };
    const projectMatch = /^\/rest\/api\/3\/project\/([^/]+)$/.exec(path);
    if (method === 'GET' && projectMatch) {
      return projectMatch[1] === project
        ? { status: 200, body: { key: project, name: 'Change board', issueTypes: types.map((name) => ({ name })) } }
        : { status: 404, body: { errorMessages: [`No project could be found with key '${projectMatch[1]}'.`] } };
    }
    if (method === 'GET' && path === '/rest/api/3/mypermissions') {
      const wanted = (query.get('permissions') ?? '').split(',');
      return { status: 200, body: { permissions: Object.fromEntries(wanted.map((p) => [p, { havePermission: !(opts.without ?? []).includes(p) }])) } };
    }
    if (method === 'GET' && path === '/rest/api/3/user/search') {
      const q = (query.get('query') ?? '').toLowerCase();
      return { status: 200, body: users.filter((u) => u.emailAddress.toLowerCase() === q) };
    }
    if (method === 'POST' && path === '/rest/api/3/search/jql') {
      const label = /labels = "([^"]+)"/.exec((body as { jql?: string }).jql ?? '')?.[1];
      const found = [...issues.values()].filter((i) => ((i.fields.labels as string[]) ?? []).includes(label ?? ''));
      return { status: 200, body: { issues: found.slice(0, 1).map(view) } };
    }
    if (method === 'POST' && path === '/rest/api/3/issue') {
      const fields = (body as { fields: Record<string, unknown> }).fields;
      if ((fields.project as { key?: string })?.key !== project) return { status: 400, body: { errors: { project: 'project is required' } } };
      if (!types.includes((fields.issuetype as { name?: string })?.name ?? ''))
        return { status: 400, body: { errors: { issuetype: 'Specify a valid issue type' } } };
      const id = String(10000 + next);
      const key = `${project}-${next++}`;
      const { project: _p, issuetype: _t, assignee, ...rest } = fields;
      const account = users.find((u) => u.accountId === (assignee as { accountId?: string } | undefined)?.accountId);
      issues.set(key, { id, key, fields: { ...rest, status: status(false), assignee: account ?? null, updated: now() }, comments: [], histories: [] });
      return { status: 201, body: { id, key, self: `/rest/api/3/issue/${id}` } };
    }
    const issueMatch = /^\/rest\/api\/3\/issue\/([^/]+)(\/comment)?$/.exec(path);
    if (issueMatch) {
      const issue = issues.get(issueMatch[1] ?? '') ?? [...issues.values()].find((i) => i.id === issueMatch[1]);
      if (!issue) return { status: 404, body: { errorMessages: ['Issue does not exist or you do not have permission to see it.'] } };
      if (issueMatch[2] && method === 'POST') {
        issue.comments.push((body as { body: unknown }).body);
        return { status: 201, body: { id: String(issue.comments.length) } };
      }
      if (method === 'GET') return { status: 200, body: view(issue) };
      if (method === 'PUT') {
        const { assignee, ...fields } = (body as { fields: Record<string, unknown> }).fields;
        const account = users.find((u) => u.accountId === (assignee as { accountId?: string } | undefined)?.accountId);
        issue.fields = { ...issue.fields, ...fields, ...(assignee ? { assignee: account ?? null } : {}), updated: now() };
        return { status: 204 };
      }
    }
    return { status: 404, body: { errorMessages: [`No route ${method} ${path}`] } };
  });

  const move = (key: string, done: boolean, by: string) => {
    const issue = issues.get(key);
    if (!issue) throw new Error(`no issue ${key}`);
    issue.fields = { ...issue.fields, status: status(done), updated: now() };
    issue.histories.push({ author: { displayName: by }, created: now(), items: [{ field: 'status', to: done ? 'Done' : 'To Do' }] });
  };
  siteUrl = base.url;
  return {
    ...base,
    issues,
    oauth: oauth?.state ?? null,
    close: (key, by = 'Jamie Jira') => move(key, true, by),
    reopen: (key, by = 'Jamie Jira') => move(key, false, by),
    assign: (key, mail) => {
      const issue = issues.get(key);
      if (issue) issue.fields = { ...issue.fields, assignee: mail ? { emailAddress: mail, displayName: mail } : null, updated: now() };
    },
    setDue: (key, date) => {
      const issue = issues.get(key);
      if (issue) issue.fields = { ...issue.fields, duedate: date, updated: now() };
    },
    remove: (key) => void issues.delete(key),
  };
}

// ---------------------------------------------------------------------------------------------------- ServiceNow

export interface ServiceNowRecord {
  sys_id: string;
  number: string;
  fields: Record<string, string>;
  notes: string[];
}

export interface ServiceNowServer extends BaseServer {
  records: Map<string, ServiceNowRecord>;
  /** With `oauth`: the instance's OAuth server record (`/oauth_auth.do`, `/oauth_token.do`; Bearer tokens accepted). */
  oauth: OAuthServerState | null;
  /** Closes the record (active false, state "Closed Complete"), as `by` would. */
  close(sysId: string, by?: string): void;
  remove(sysId: string): void;
}

/**
 * ServiceNow's Table API as M365 Radar uses it: list with sysparm_query (correlation_id, a user by e-mail, a group),
 * create, read, update (with work notes) of one table's records; basic auth, or OAuth with an Application Registry
 * client. sysparm_display_value=all answers each field as { value, display_value }.
 */
export async function startServiceNowServer(
  opts: { username?: string; password?: string; table?: string; users?: string[]; groups?: string[]; oauth?: OAuthClientOptions } = {},
) {
  const oauth = opts.oauth ? oauthServer(opts.oauth, { authorize: '/oauth_auth.do', token: '/oauth_token.do' }) : null;
  const username = opts.username ?? 'radar';
  const password = opts.password ?? 'sn-password';
  const table = opts.table ?? 'sc_task';
  const records = new Map<string, ServiceNowRecord>();
  let next = 1;
  const stamp = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
  const shown = (r: ServiceNowRecord) => {
    const f: Record<string, string> = { ...r.fields, sys_id: r.sys_id, number: r.number };
    if (r.fields.assigned_to?.startsWith('user-')) f['assigned_to.email'] = r.fields.assigned_to.slice(5);
    const label = f.active === 'false' ? 'Closed Complete' : 'Open';
    return Object.fromEntries(
      Object.entries({ ...f, state: f.state ?? '1' }).map(([k, v]) => [k, { value: v, display_value: k === 'state' ? label : v }]),
    ) as Record<string, { value: string; display_value: string }>;
  };
  const base = await startServer((req) => {
    const { method, path, query, body, authorization } = req;
    if (oauth) {
      const answered = oauth.handle(req);
      if (answered.status) return answered;
    }
    if (authorization !== basic(username, password) && !oauth?.bearerOk(authorization))
      return { status: 401, body: { error: { message: 'User Not Authenticated', detail: 'Required to provide Auth information' } } };
    const m = /^\/api\/now\/table\/([a-z_]+)(?:\/([^/]+))?$/.exec(path);
    if (!m) return { status: 404, body: { error: { message: 'Not found' } } };
    const [, name, id] = m;
    const q = query.get('sysparm_query') ?? '';
    if (name === 'sys_user') {
      const email = /^email=(.+)$/.exec(q)?.[1];
      return { status: 200, body: { result: (opts.users ?? []).filter((u) => u === email).map((u) => ({ sys_id: `user-${u}` })) } };
    }
    if (name === 'sys_user_group') {
      const wanted = /name=(.+)$/.exec(q)?.[1];
      return { status: 200, body: { result: (opts.groups ?? []).filter((g) => g === wanted).map((g) => ({ sys_id: `group-${g}`, name: g })) } };
    }
    if (name !== table) return { status: 400, body: { error: { message: 'Invalid table', detail: `Table ${name} not found` } } };
    if (!id && method === 'GET') {
      const correlation = /^correlation_id=(.+)$/.exec(q)?.[1];
      const found = [...records.values()].filter((r) => !correlation || r.fields.correlation_id === correlation);
      return { status: 200, body: { result: found.slice(0, Number(query.get('sysparm_limit') ?? 100)).map(shown) } };
    }
    if (!id && method === 'POST') {
      const sysId = `sys${String(next).padStart(29, '0')}`;
      const record: ServiceNowRecord = {
        sys_id: sysId,
        number: `SCTASK${String(1000 + next++).padStart(7, '0')}`,
        fields: { ...(body as Record<string, string>), active: 'true', sys_updated_on: stamp() },
        notes: [],
      };
      records.set(sysId, record);
      return { status: 201, body: { result: shown(record) } };
    }
    const record = records.get(id ?? '');
    if (!record) return { status: 404, body: { error: { message: 'No Record found', detail: "Record doesn't exist or ACL restricts the record retrieval" } } };
    if (method === 'GET') return { status: 200, body: { result: shown(record) } };
    if (method === 'PATCH') {
      const { work_notes, ...fields } = body as Record<string, string>;
      if (work_notes) record.notes.push(work_notes);
      record.fields = { ...record.fields, ...fields, sys_updated_on: stamp() };
      return { status: 200, body: { result: shown(record) } };
    }
    return { status: 405, body: { error: { message: 'Method not allowed' } } };
  });
  const server: ServiceNowServer = {
    ...base,
    records,
    oauth: oauth?.state ?? null,
    close: (sysId, by = 'Sam Servicenow') => {
      const record = records.get(sysId);
      if (record) record.fields = { ...record.fields, active: 'false', state: '3', 'closed_by.name': by, sys_updated_on: stamp() };
    },
    remove: (sysId) => void records.delete(sysId),
  };
  return server;
}
