import type { ConnectionCheck, ServiceNowSettings } from '@radar/contracts';
import { expectOk, TrackerError, trackerRequest, type TrackerHttpOptions } from '../tracker-http.js';
import type { RemoteTask, TaskDraft, TaskRef, TrackerConnector } from './connector.js';

/** A field read with sysparm_display_value=all: the stored value and what the instance shows. */
type Field = { value?: string; display_value?: string };
type SnRecord = Record<string, Field | undefined>;

const FIELDS = ['sys_id', 'number', 'state', 'active', 'assigned_to.email', 'due_date', 'sys_updated_on', 'closed_by.name'];
const value = (r: SnRecord, name: string) => r[name]?.value ?? '';
/** ServiceNow's stored date-times are UTC as 'YYYY-MM-DD HH:mm:ss'. */
const snDate = (v: string): Date | null => (v ? new Date(`${v.replace(' ', 'T')}Z`) : null);

/** How the connector signs in: a user and password (basic auth), or an OAuth access token renewed as it expires. */
export interface ServiceNowAccess {
  authorization: () => Promise<string>;
  /** Who the calls are made as, in the checks' words. */
  who: string;
  /** How a refused sign-in is explained. */
  refused: string;
  http: TrackerHttpOptions;
}

export const basicAccess = (settings: ServiceNowSettings, password: string, http: TrackerHttpOptions): ServiceNowAccess => ({
  authorization: () => Promise.resolve(`Basic ${Buffer.from(`${settings.username}:${password}`).toString('base64')}`),
  who: settings.username,
  refused: 'ServiceNow refused the user name and password',
  http,
});

/**
 * ServiceNow through the Table API with a user and password (basic auth) or OAuth. A task is a record of the chosen table
 * (sc_task, change_request or another task table); the record's idempotency key is its `correlation_id`. Done is
 * `active = false` (closed, complete, skipped or cancelled, whatever the table calls it); the item's changes are work
 * notes.
 */
export function createServiceNowConnector(settings: ServiceNowSettings, access: ServiceNowAccess): TrackerConnector {
  const base = settings.baseUrl;
  const table = `/api/now/table/${settings.table}`;
  const call = async (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
    trackerRequest(access.http, method, `${base}${path}`, { authorization: await access.authorization() }, body);
  const who = access.who;
  const read = `sysparm_display_value=all&sysparm_exclude_reference_link=true&sysparm_fields=${FIELDS.join(',')}`;

  function toRemote(r: SnRecord): RemoteTask {
    const id = value(r, 'sys_id');
    const done = value(r, 'active') === 'false';
    return {
      id,
      key: value(r, 'number') || id,
      url: `${base}/nav_to.do?uri=${encodeURIComponent(`${settings.table}.do?sys_id=${id}`)}`,
      state: r.state?.display_value || value(r, 'state') || 'Unknown',
      done,
      closedBy: done ? r['closed_by.name']?.display_value || null : null,
      assigneeEmail: value(r, 'assigned_to.email').toLowerCase() || null,
      dueDate: value(r, 'due_date').slice(0, 10) || null,
      updatedAt: snDate(value(r, 'sys_updated_on')),
    };
  }

  async function userOf(email: string | null): Promise<string | null> {
    if (!email) return null;
    const res = await call('GET', `/api/now/table/sys_user?sysparm_query=${encodeURIComponent(`email=${email}`)}&sysparm_limit=2&sysparm_fields=sys_id`);
    if (res.status !== 200) return null;
    const found = (JSON.parse(res.text) as { result?: { sys_id?: string }[] }).result ?? [];
    return found.length === 1 ? (found[0]?.sys_id ?? null) : null;
  }

  async function fields(draft: TaskDraft, creating: boolean): Promise<Record<string, string>> {
    const user = await userOf(draft.assigneeEmail);
    const priority = settings.priorities?.[draft.priority];
    return {
      short_description: draft.title.slice(0, 160),
      description: draft.description,
      ...(creating ? { correlation_id: draft.idempotencyKey, correlation_display: 'M365 Radar' } : {}),
      ...(creating && settings.assignmentGroup ? { assignment_group: settings.assignmentGroup } : {}),
      ...(settings.setDueDate ? { due_date: draft.dueDate ? `${draft.dueDate} 00:00:00` : '' } : {}),
      ...(priority ? { priority } : {}),
      ...(user ? { assigned_to: user } : {}),
    };
  }

  async function readOne(ref: TaskRef): Promise<RemoteTask | null> {
    const res = await call('GET', `${table}/${encodeURIComponent(ref.id)}?${read}`);
    if (res.status === 404) return null;
    return toRemote(expectOk<{ result: SnRecord }>(res, `Reading ${ref.key}`).result);
  }

  return {
    async test() {
      const checks: ConnectionCheck[] = [];
      const res = await call('GET', `${table}?sysparm_limit=1&sysparm_fields=sys_id`);
      if (res.status === 401) return [{ name: 'Sign-in', ok: false, message: access.refused }];
      checks.push({ name: 'Sign-in', ok: true, message: `Signed in as ${who}` });
      if (res.status === 400 || res.status === 404) {
        checks.push({ name: 'Table', ok: false, message: `The instance has no table “${settings.table}”` });
        return checks;
      }
      if (res.status === 403) {
        checks.push({
          name: 'Table',
          ok: false,
          message: `${who} may not read ${settings.table}: give the user the itil role or an ACL for the table`,
        });
        return checks;
      }
      if (res.status !== 200) {
        checks.push({ name: 'Table', ok: false, message: `Reading ${settings.table} answered HTTP ${res.status}` });
        return checks;
      }
      checks.push({ name: 'Table', ok: true, message: `${who} may read ${settings.table} (creating and updating records needs write ACLs too)` });
      if (settings.assignmentGroup) {
        const group = settings.assignmentGroup;
        const found = await call(
          'GET',
          `/api/now/table/sys_user_group?sysparm_query=${encodeURIComponent(`sys_id=${group}^ORname=${group}`)}&sysparm_limit=1&sysparm_fields=sys_id,name`,
        );
        const rows = found.status === 200 ? ((JSON.parse(found.text) as { result?: unknown[] }).result ?? []) : [];
        checks.push(
          rows.length
            ? { name: 'Assignment group', ok: true, message: `${group} exists` }
            : { name: 'Assignment group', ok: false, message: `No assignment group “${group}” (by sys_id or name), or the user may not read groups` },
        );
      }
      return checks;
    },

    async findByKey(idempotencyKey) {
      const res = await call('GET', `${table}?sysparm_query=${encodeURIComponent(`correlation_id=${idempotencyKey}`)}&sysparm_limit=1&${read}`);
      const found = expectOk<{ result?: SnRecord[] }>(res, 'Searching for the task').result?.[0];
      return found ? toRemote(found) : null;
    },

    async create(draft) {
      const res = await call('POST', `${table}?${read}`, await fields(draft, true));
      const created = expectOk<{ result?: SnRecord }>(res, `Creating the ${settings.table} record`).result;
      if (!created || !value(created, 'sys_id')) throw new TrackerError(`Creating the ${settings.table} record: the answer had no sys_id`, res.status, false);
      return toRemote(created);
    },

    async update(ref, draft) {
      const res = await call('PATCH', `${table}/${encodeURIComponent(ref.id)}?${read}`, await fields(draft, false));
      if (res.status === 404) return null;
      return toRemote(expectOk<{ result: SnRecord }>(res, `Updating ${ref.key}`).result);
    },

    async comment(ref, text) {
      const res = await call('PATCH', `${table}/${encodeURIComponent(ref.id)}?sysparm_fields=sys_id`, { work_notes: text });
      if (res.status === 404) return false;
      expectOk(res, `Adding a work note to ${ref.key}`);
      return true;
    },

    read: readOne,
  };
}
