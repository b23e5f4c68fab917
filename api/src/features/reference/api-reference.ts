import { endpoints, isJsonEndpoint, successStatuses, type Endpoint } from '@radar/contracts';
import { jsonSchemaOf, openApiPath } from './openapi.js';

type JsonSchema = { properties?: Record<string, JsonSchema>; required?: string[]; type?: unknown; items?: JsonSchema; enum?: unknown[] };

/** What each group of the endpoint table is for: the heading line of its section. */
const GROUP_TEXT: Record<keyof typeof endpoints, string> = {
  auth: 'Passwordless sign-in, sessions and the signed-in user.',
  items: 'The unified list and its export, filters, stats, featured items, each source’s items with history, versions and links.',
  curation: 'Moderators’ and admins’ curation of an item, and its activity record.',
  subscriptions: 'A user’s follows of single items.',
  digest: 'The weekly digest: this week’s content, sign-up and double opt-in, and the signed-in toggle.',
  unsubscribe: 'The one unsubscribe link of every mail.',
  contact: 'The contact form.',
  admin: 'Roles, users, assignments, impersonation, analytics, product mappings, activity, AI summary, test mail, contact submissions.',
  sync: 'The syncs of every source: run one now, Sync History, held snapshots, Change History.',
  health: 'Liveness and readiness for load balancers.',
  feeds: 'Any list view as RSS, Atom or an iCalendar of release months.',
  reference: 'This API’s OpenAPI document and its docs page.',
  tokens: 'Personal API tokens.',
  mcp: 'The MCP server for agents (JSON-RPC over HTTP).',
  alerts: 'Saved searches and the channels their alerts go to.',
  remotes: 'The remote registry: where each front-end remote is served from.',
  tenants: 'The Microsoft 365 tenants whose Message Center and Service Health are read, their connection test and sync, and who may see the private ones.',
  serviceHealth: 'Service Health incidents and advisories, kept for good: one issue with its posts, status timeline, report and related items.',
  trackers:
    'Work trackers (Microsoft Planner, Jira Cloud, ServiceNow): the connections, their test, pull and delivery log, and the tasks triage records are pushed to.',
  passkeys: 'Passkeys (WebAuthn): adding, naming and removing them on /profile, and signing in with one instead of an e-mailed code.',
  usage: 'A tenant’s usage as Microsoft Graph’s usage reports count it (active users per workload, kept 13 months), for relevance.',
  relevance: 'Each item’s relevance to the tenants the caller may see (High, Medium, Low or Unknown, and why), from their usage and licences.',
  triage: 'Triage: each item’s state, owner, due date and priority with where the defaults came from, its conversation, the queue views and bulk changes.',
};

const ACCESS: Record<Endpoint['access'], string> = {
  public: 'anyone',
  signedIn: 'signed in',
  moderator: 'Moderator',
  admin: 'Admin',
  realAdmin: 'real Admin',
};

/** `name`, `name?` (optional) and `name[]` (a list): the fields a caller can send in one part of the request. */
function fieldsOf(schema: Endpoint['params'], always = false): string[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input') as JsonSchema;
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const list = property.type === 'array' ? '[]' : '';
    const optional = always || (json.required ?? []).includes(name) ? '' : '?';
    return `\`${name}${list}${optional}\``;
  });
}

function inputOf(endpoint: Endpoint): string {
  const parts = [
    ['path', fieldsOf(endpoint.params, true)],
    ['query', fieldsOf(endpoint.query)],
    ['body', fieldsOf(endpoint.body)],
  ] as const;
  return (
    parts
      .filter(([, fields]) => fields.length > 0)
      .map(([where, fields]) => `${where}: ${fields.join(', ')}`)
      .join('<br>') || '–'
  );
}

function answerOf(endpoint: Endpoint): string {
  const statuses = successStatuses(endpoint).join(', ');
  if (isJsonEndpoint(endpoint)) return `${statuses} JSON`;
  const media = (endpoint.response as { raw: string }).raw;
  return `${statuses} ${media === 'redirect' ? 'redirect' : `\`${media}\``}`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * docs/api-reference.md: every row of the endpoint table, by group, with its access, what it takes and what it
 * answers. Generated (`npm run docs:api --workspace @radar/api`) and checked by a test, so it cannot drift from what
 * the api mounts; docs/api.md keeps the narrative (rules, errors, examples) and links here.
 */
export function renderApiReference(): string {
  const lines = [
    '# API reference',
    '',
    '<!-- Generated from the endpoint table (contracts/src/endpoints/) by `npm run docs:api --workspace @radar/api`: do not edit. -->',
    '',
    'Every route the api answers, by group of the endpoint table; the handlers of a group live in',
    '`api/src/features/<group>/`. Access: who may call it (Admin and Moderator are roles; "real Admin" ignores',
    'impersonation); **token** means a personal API token (`Authorization: Bearer rdr_…`) is accepted too. Inputs:',
    '`name?` is optional, `name[]` a list. Errors are not listed: every route answers',
    '`{ "error": { "name", "message", "issues"? } }` with 400 (naming the field), 401, 403, 404, 409 or 429 as',
    'docs/api.md describes. The same table drives the OpenAPI document at `/api/openapi.json` with full schemas.',
    '',
  ];
  for (const [group, rows] of Object.entries(endpoints) as [keyof typeof endpoints, Record<string, Endpoint>][]) {
    lines.push(`## ${group}`, '', GROUP_TEXT[group], '', '| Endpoint | Access | Input | Answer | What it does |', '|---|---|---|---|---|');
    for (const endpoint of Object.values(rows)) {
      const access = `${ACCESS[endpoint.access]}${endpoint.tokenAccess ? ', token' : ''}`;
      lines.push(
        `| \`${endpoint.method} ${openApiPath(endpoint.path)}\` | ${access} | ${inputOf(endpoint)} | ${answerOf(endpoint)} | ${cell(endpoint.summary)} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
