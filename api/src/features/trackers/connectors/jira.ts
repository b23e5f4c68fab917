import type { ConnectionCheck, JiraSettings } from '@radar/contracts';
import { expectOk, TrackerError, trackerRequest, type TrackerHttpOptions } from '../tracker-http.js';
import type { RemoteTask, TaskDraft, TaskRef, TrackerConnector } from './connector.js';

interface JiraIssue {
  id: string;
  key: string;
  fields?: {
    status?: { name?: string; statusCategory?: { key?: string } };
    assignee?: { emailAddress?: string; displayName?: string } | null;
    duedate?: string | null;
    updated?: string;
  };
  changelog?: { histories?: { author?: { displayName?: string; emailAddress?: string }; created?: string; items?: { field?: string; to?: string }[] }[] };
}

const FIELDS = ['summary', 'status', 'assignee', 'duedate', 'updated'];
/** The permissions pushing and reading tasks needs, as Jira names them. */
const NEEDED = { BROWSE_PROJECTS: 'Browse projects', CREATE_ISSUES: 'Create issues', EDIT_ISSUES: 'Edit issues', ADD_COMMENTS: 'Add comments' };

/** Jira's timestamps end in +0000; Date wants +00:00. */
const jiraDate = (value: string | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(date.getTime()) ? null : date;
};

/** Plain text as an Atlassian Document: a paragraph per line, URLs as links. */
export function toAdf(text: string): Record<string, unknown> {
  const paragraphs = text.split('\n').map((line) => {
    const content = line.split(/(https?:\/\/\S+)/).flatMap((part) => {
      if (!part) return [];
      return /^https?:\/\//.test(part) ? [{ type: 'text', text: part, marks: [{ type: 'link', attrs: { href: part } }] }] : [{ type: 'text', text: part }];
    });
    return { type: 'paragraph', content };
  });
  return { type: 'doc', version: 1, content: paragraphs };
}

/**
 * How the connector reaches Jira: the site with an account's e-mail and API token (basic auth), or Atlassian's gateway
 * (`{ATLASSIAN_API_URL}/ex/jira/{cloudId}`) with an OAuth 2.0 (3LO) access token, renewed as it expires.
 */
export interface JiraAccess {
  /** Where `/rest/api/3/…` is. */
  apiBase: string;
  /** The Authorization header of the next call. */
  authorization: () => Promise<string>;
  /** How a refused sign-in is explained. */
  refused: string;
  http: TrackerHttpOptions;
}

/** The access of an e-mail and API token: the site itself, through the SSRF guard. */
export const tokenAccess = (settings: JiraSettings, apiToken: string, http: TrackerHttpOptions): JiraAccess => ({
  apiBase: settings.baseUrl,
  authorization: () => Promise.resolve(`Basic ${Buffer.from(`${settings.email}:${apiToken}`).toString('base64')}`),
  refused: 'Jira refused the e-mail and API token: check the e-mail address and create a new API token at id.atlassian.com',
  http,
});

/**
 * Jira Cloud through REST API v3, signed in with an account's e-mail and API token or with OAuth 2.0. A task is an
 * issue in the project; the record's idempotency key is one of its labels (`radar-…`), so a create whose answer was lost is found
 * by a JQL search before another is made. Done is Jira's status category "done"; who closed it is the author of the
 * last status change in the changelog.
 */
export function createJiraConnector(settings: JiraSettings, access: JiraAccess): TrackerConnector {
  const base = settings.baseUrl;
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
    trackerRequest(access.http, method, `${access.apiBase}${path}`, { authorization: await access.authorization() }, body);
  const label = (key: string) => `radar-${key}`;

  function toRemote(issue: JiraIssue): RemoteTask {
    const f = issue.fields ?? {};
    const done = f.status?.statusCategory?.key === 'done';
    const lastStatus = [...(issue.changelog?.histories ?? [])]
      .filter((h) => h.items?.some((i) => i.field === 'status'))
      .sort((a, b) => (jiraDate(a.created)?.getTime() ?? 0) - (jiraDate(b.created)?.getTime() ?? 0))
      .at(-1);
    return {
      id: issue.id,
      key: issue.key,
      url: `${base}/browse/${issue.key}`,
      state: f.status?.name ?? 'Unknown',
      done,
      closedBy: done ? (lastStatus?.author?.displayName ?? null) : null,
      assigneeEmail: f.assignee?.emailAddress?.toLowerCase() ?? null,
      dueDate: f.duedate ?? null,
      updatedAt: jiraDate(f.updated),
    };
  }

  /** The account of an e-mail address, when Jira lets this account find it (e-mail search can be restricted). */
  async function accountOf(email: string | null): Promise<string | null> {
    if (!email) return null;
    const res = await call('GET', `/rest/api/3/user/search?query=${encodeURIComponent(email)}`);
    if (res.status !== 200) return null;
    const users = JSON.parse(res.text || '[]') as { accountId?: string; emailAddress?: string }[];
    const match = users.filter((u) => u.emailAddress?.toLowerCase() === email.toLowerCase());
    return match.length === 1 ? (match[0]?.accountId ?? null) : null;
  }

  async function fields(draft: TaskDraft, creating: boolean): Promise<Record<string, unknown>> {
    const account = await accountOf(draft.assigneeEmail);
    return {
      summary: draft.title.slice(0, 255),
      description: toAdf(draft.description),
      ...(creating
        ? { project: { key: settings.projectKey }, issuetype: { name: settings.issueType }, labels: [...settings.labels, label(draft.idempotencyKey)] }
        : {}),
      ...(settings.setDueDate ? { duedate: draft.dueDate } : {}),
      ...(settings.priorities && settings.priorities[draft.priority] ? { priority: { name: settings.priorities[draft.priority] } } : {}),
      ...(account ? { assignee: { accountId: account } } : {}),
    };
  }

  async function read(ref: TaskRef): Promise<RemoteTask | null> {
    const res = await call('GET', `/rest/api/3/issue/${encodeURIComponent(ref.key || ref.id)}?fields=${FIELDS.join(',')}&expand=changelog`);
    if (res.status === 404) return null;
    return toRemote(expectOk<JiraIssue>(res, `Reading ${ref.key}`));
  }

  return {
    async test() {
      const checks: ConnectionCheck[] = [];
      const me = await call('GET', '/rest/api/3/myself');
      if (me.status !== 200) {
        return [{ name: 'Sign-in', ok: false, message: me.status === 401 ? access.refused : `Jira answered HTTP ${me.status} to the sign-in` }];
      }
      const who = JSON.parse(me.text) as { displayName?: string; emailAddress?: string };
      checks.push({ name: 'Sign-in', ok: true, message: `Signed in as ${who.displayName ?? settings.email}` });
      const project = await call('GET', `/rest/api/3/project/${encodeURIComponent(settings.projectKey)}`);
      if (project.status !== 200) {
        checks.push({ name: 'Project', ok: false, message: `Project ${settings.projectKey} was not found, or this account may not browse it` });
        return checks;
      }
      const found = JSON.parse(project.text) as { name?: string; issueTypes?: { name?: string }[] };
      checks.push({ name: 'Project', ok: true, message: `${settings.projectKey}: ${found.name ?? ''}`.trim() });
      const types = (found.issueTypes ?? []).map((t) => t.name ?? '');
      checks.push(
        types.includes(settings.issueType)
          ? { name: 'Issue type', ok: true, message: `${settings.issueType} exists in ${settings.projectKey}` }
          : {
              name: 'Issue type',
              ok: false,
              message: `${settings.projectKey} has no issue type “${settings.issueType}”: one of ${types.join(', ') || 'none'}`,
            },
      );
      const perms = await call(
        'GET',
        `/rest/api/3/mypermissions?projectKey=${encodeURIComponent(settings.projectKey)}&permissions=${Object.keys(NEEDED).join(',')}`,
      );
      const granted =
        perms.status === 200 ? ((JSON.parse(perms.text) as { permissions?: Record<string, { havePermission?: boolean }> }).permissions ?? {}) : {};
      const missing = Object.entries(NEEDED)
        .filter(([key]) => !granted[key]?.havePermission)
        .map(([, name]) => name);
      checks.push(
        missing.length === 0
          ? { name: 'Permissions', ok: true, message: 'May browse, create and edit issues and add comments' }
          : { name: 'Permissions', ok: false, message: `This account lacks in ${settings.projectKey}: ${missing.join(', ')}` },
      );
      return checks;
    },

    async findByKey(idempotencyKey) {
      const res = await call('POST', '/rest/api/3/search/jql', { jql: `labels = "${label(idempotencyKey)}"`, fields: FIELDS, maxResults: 1 });
      const found = expectOk<{ issues?: JiraIssue[] }>(res, 'Searching for the task').issues?.[0];
      return found ? read({ id: found.id, key: found.key }) : null;
    },

    async create(draft) {
      const res = await call('POST', '/rest/api/3/issue', { fields: await fields(draft, true) });
      const created = expectOk<{ id: string; key: string }>(res, 'Creating the issue');
      if (!created?.key) throw new TrackerError('Creating the issue: Jira answered without an issue key', res.status, false);
      return (
        (await read(created)) ?? {
          id: created.id,
          key: created.key,
          url: `${base}/browse/${created.key}`,
          state: 'Open',
          done: false,
          closedBy: null,
          assigneeEmail: null,
          dueDate: draft.dueDate,
          updatedAt: null,
        }
      );
    },

    async update(ref, draft) {
      const res = await call('PUT', `/rest/api/3/issue/${encodeURIComponent(ref.key)}`, { fields: await fields(draft, false) });
      if (res.status === 404) return null;
      expectOk(res, `Updating ${ref.key}`);
      return read(ref);
    },

    async comment(ref, text) {
      const res = await call('POST', `/rest/api/3/issue/${encodeURIComponent(ref.key)}/comment`, { body: toAdf(text) });
      if (res.status === 404) return false;
      expectOk(res, `Commenting on ${ref.key}`);
      return true;
    },

    read,
  };
}
