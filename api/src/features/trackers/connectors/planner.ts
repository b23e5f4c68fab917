import type { PlannerSettings } from '@radar/contracts';
import { expectOk, TrackerError, type TrackerHttpOptions } from '../tracker-http.js';
import { createGraphSession, type GraphTokenCache, type PlannerTenant } from './graph-session.js';
import { checkPlanner } from './planner-check.js';
import type { RemoteTask, TaskDraft, TaskRef, TrackerConnector } from './connector.js';

/** Where notes written by M365 Radar end and the item's later changes begin; the part above is rewritten on update. */
const UPDATES_MARK = '— Changes since the task was made —';
/** Planner keeps notes of about 32,000 characters; past this the oldest changes are cut. */
const NOTES_MAX = 30_000;

type PlannerTaskJson = {
  id: string;
  title?: string;
  planId?: string;
  bucketId?: string;
  percentComplete?: number;
  dueDateTime?: string | null;
  priority?: number;
  assignments?: Record<string, unknown>;
  completedBy?: { user?: { id?: string; displayName?: string | null } | null } | null;
  createdBy?: { application?: { id?: string } | null } | null;
  '@odata.etag'?: string;
};
type DetailsJson = { description?: string | null; references?: Record<string, unknown> | null; '@odata.etag'?: string };

/** Planner's key of an external reference: the URL with '%', '.', ':', '@' and '#' percent-encoded. */
export const referenceKey = (url: string) => url.replace(/%/g, '%25').replace(/\./g, '%2E').replace(/:/g, '%3A').replace(/@/g, '%40').replace(/#/g, '%23');

/** The link back, carrying the record's idempotency key so a task whose create answer was lost can be found. */
export const referenceUrl = (draft: TaskDraft) => `${draft.url}${draft.url.includes('?') ? '&' : '?'}radarTask=${encodeURIComponent(draft.idempotencyKey)}`;

/** Planner's web address of a task: the Planner site of the tenant's cloud. */
function taskUrl(tenant: PlannerTenant, taskId: string) {
  const host = tenant.cloud === 'gcchigh' || tenant.cloud === 'dod' ? 'https://tasks.office365.us' : 'https://tasks.office.com';
  return `${host}/${encodeURIComponent(tenant.directoryId)}/Home/Task/${encodeURIComponent(taskId)}`;
}

const odataQuote = (v: string) => `'${v.replace(/'/g, "''")}'`;

/**
 * Microsoft Planner through Graph, signed in as the tenant's app (application permission Tasks.ReadWrite.All). A task
 * per record in the chosen plan and bucket: the title, due date (noon UTC, the same calendar day from UTC-11 to
 * UTC+11), priority, the owner assigned when their e-mail is a user of the tenant (User.Read.All), and notes with the
 * summary and a reference linking back (its URL carries the idempotency key). Done is 100 % complete; the item's
 * changes are appended to the notes below a mark, so an update rewrites the part above it and keeps them. Every write
 * carries the ETag Graph last gave (If-Match); a 412 means someone changed the task meanwhile: it is read again and the
 * write made once more. Planner tasks carry no time of their last change, so when both sides changed the owner or due
 * date since the last read, M365 Radar's value is kept and the activity log records Planner's.
 */
export function createPlannerConnector(
  settings: PlannerSettings,
  tenant: PlannerTenant,
  http: TrackerHttpOptions,
  tokens: GraphTokenCache,
  now: () => number,
  delegated?: { token: () => Promise<string>; by: string | null },
): TrackerConnector {
  const session = createGraphSession(tenant, http, tokens, now, delegated?.token);
  const { call } = session;
  const people = new Map<string, { email: string | null; name: string | null }>();

  async function personOf(userId: string) {
    const known = people.get(userId);
    if (known) return known;
    const res = await call('GET', `/users/${encodeURIComponent(userId)}?$select=displayName,mail,userPrincipalName`);
    const body = res.status === 200 ? (JSON.parse(res.text) as { displayName?: string; mail?: string | null; userPrincipalName?: string }) : {};
    const person = { email: (body.mail || body.userPrincipalName || '').toLowerCase() || null, name: body.displayName ?? null };
    people.set(userId, person);
    return person;
  }

  /** The tenant's user with this e-mail (as mail or sign-in name), when there is exactly one and users can be read. */
  async function userIdOf(email: string | null): Promise<string | null> {
    if (!email) return null;
    const filter = `mail eq ${odataQuote(email)} or userPrincipalName eq ${odataQuote(email)}`;
    const res = await call('GET', `/users?$filter=${encodeURIComponent(filter)}&$select=id&$top=2`);
    if (res.status !== 200) return null;
    const found = (JSON.parse(res.text) as { value?: { id: string }[] }).value ?? [];
    return found.length === 1 ? (found[0]?.id ?? null) : null;
  }

  /**
   * The task as the link keeps it. With `people` false the assignee and closer are not looked up (a created task,
   * when Graph just failed a call: its id must not be lost to a failing lookup).
   */
  async function toRemote(task: PlannerTaskJson, people = true): Promise<RemoteTask> {
    const percent = task.percentComplete ?? 0;
    const done = percent >= 100;
    const assignee = people ? Object.keys(task.assignments ?? {})[0] : undefined;
    const closer = people ? task.completedBy?.user : undefined;
    return {
      id: task.id,
      key: (task.title ?? task.id).slice(0, 80),
      url: taskUrl(tenant, task.id),
      state: done ? 'Completed' : percent > 0 ? 'In progress' : 'Not started',
      done,
      closedBy: done && closer ? closer.displayName || (closer.id ? (await personOf(closer.id)).name : null) : null,
      assigneeEmail: assignee ? (await personOf(assignee)).email : null,
      dueDate: task.dueDateTime ? task.dueDateTime.slice(0, 10) : null,
      updatedAt: null,
    };
  }

  /**
   * Tasks as `read` last saw them, for the update that follows it in the same delivery (the connector lives for one):
   * their ETag makes the PATCH, so the task is not read twice in a row. Taken once; a 412 reads it afresh.
   */
  const justRead = new Map<string, PlannerTaskJson>();

  async function readTask(id: string): Promise<PlannerTaskJson | null> {
    const res = await call('GET', `/planner/tasks/${encodeURIComponent(id)}`);
    if (res.status === 404) return null;
    return expectOk<PlannerTaskJson>(res, 'Reading the Planner task');
  }

  async function readDetails(id: string): Promise<DetailsJson | null> {
    const res = await call('GET', `/planner/tasks/${encodeURIComponent(id)}/details`);
    if (res.status === 404) return null;
    return expectOk<DetailsJson>(res, "Reading the Planner task's notes");
  }

  /**
   * A PATCH with the ETag of a fresh read, read again and made once more when someone changed it meanwhile (412).
   * The changed object when Graph sends it back (`representation`: Prefer return=representation), undefined when it
   * answered without one, null when the object is gone.
   */
  async function patchWithEtag<T extends { '@odata.etag'?: string }>(
    path: string,
    read: () => Promise<T | null>,
    change: (current: T) => Record<string, unknown>,
    what: string,
    representation = false,
  ): Promise<T | undefined | null> {
    const prefer = representation ? 'return=representation' : 'return=minimal';
    for (let attempt = 0; ; attempt++) {
      const current = await read();
      if (!current) return null;
      const res = await call('PATCH', path, change(current), { 'if-match': current['@odata.etag'] ?? '*', prefer });
      if (res.status === 404) return null;
      if (res.status === 412 && attempt === 0) continue;
      return expectOk<T | undefined>(res, what) ?? undefined;
    }
  }

  function taskFields(draft: TaskDraft) {
    const priority = settings.priorities?.[draft.priority];
    return {
      title: draft.title.slice(0, 255),
      ...(settings.setDueDate ? { dueDateTime: draft.dueDate ? `${draft.dueDate}T12:00:00Z` : null } : {}),
      ...(priority ? { priority: Number(priority) } : {}),
    };
  }

  /** The notes: the description above the mark, the changes appended below it kept (the oldest cut past the limit). */
  function notesOf(draft: TaskDraft, current: string | null | undefined, appended?: string) {
    const text = current ?? '';
    const at = text.indexOf(UPDATES_MARK);
    const kept = at >= 0 ? text.slice(at + UPDATES_MARK.length).trim() : '';
    const changes = [kept, appended].filter(Boolean).join('\n\n');
    const head = draft.description.slice(0, NOTES_MAX / 2);
    if (!changes) return head;
    const room = NOTES_MAX - head.length - UPDATES_MARK.length - 4;
    return `${head}\n\n${UPDATES_MARK}\n${changes.length > room ? changes.slice(changes.length - room) : changes}`;
  }

  function detailsFields(draft: TaskDraft, current: DetailsJson | null) {
    return {
      description: notesOf(draft, current?.description),
      previewType: 'description',
      references: {
        [referenceKey(referenceUrl(draft))]: { '@odata.type': 'microsoft.graph.plannerExternalReference', alias: 'Open in M365 Radar', type: 'Other' },
      },
    };
  }

  const hasReference = (details: DetailsJson | null, draft: TaskDraft) =>
    Object.keys(details?.references ?? {}).some((k) => k.includes(encodeURIComponent(draft.idempotencyKey)));

  return {
    test: () => checkPlanner(session, settings, tenant, delegated),

    async findByKey(idempotencyKey, draft) {
      // Graph cannot search tasks by a reference: the plan's tasks with this item's title prefix are the candidates,
      // and the one whose reference carries the key is the task. A create whose answer was lost made a task without
      // notes or reference yet: the one made by this app with exactly this title and no M365 Radar reference is it
      // (adopted, and an update queued to write its notes).
      const prefix = draft.title.split(':')[0] ?? draft.title;
      const title = taskFields(draft).title;
      const tasks = await session.list<PlannerTaskJson>(`/planner/plans/${encodeURIComponent(settings.planId)}/tasks`, 'Listing the plan’s tasks', 50);
      let orphan: PlannerTaskJson | null = null;
      for (const task of tasks.filter((t) => (t.title ?? '').startsWith(prefix))) {
        const details = await readDetails(task.id);
        if (hasReference(details, { ...draft, idempotencyKey })) return toRemote(task);
        const referenced = Object.keys(details?.references ?? {}).some((k) => k.includes('radarTask='));
        if (!referenced && task.title === title && task.createdBy?.application?.id === tenant.clientId) orphan ??= task;
      }
      return orphan ? { ...(await toRemote(orphan)), needsUpdate: true } : null;
    },

    async create(draft) {
      const user = await userIdOf(draft.assigneeEmail);
      const res = await call('POST', '/planner/tasks', {
        planId: settings.planId,
        bucketId: settings.bucketId,
        ...taskFields(draft),
        ...(user ? { assignments: { [user]: { '@odata.type': '#microsoft.graph.plannerAssignment', orderHint: ' !' } } } : {}),
      });
      const created = expectOk<PlannerTaskJson>(res, 'Creating the Planner task');
      if (!created?.id) throw new TrackerError('Creating the Planner task: the answer had no id', res.status, false);
      // The notes and the link back are a second call. The task exists now, so a failure here must not fail the create
      // (a retry would make a second task): the task is answered and an update queued to write them.
      try {
        await patchWithEtag(
          `/planner/tasks/${encodeURIComponent(created.id)}/details`,
          () => readDetails(created.id),
          (current) => detailsFields(draft, current),
          "Writing the Planner task's notes",
        );
      } catch (err) {
        if (!(err instanceof TrackerError)) throw err;
        return { ...(await toRemote(created, false)), needsUpdate: true };
      }
      return toRemote(created);
    },

    async update(ref, draft) {
      const user = await userIdOf(draft.assigneeEmail);
      // The changed task comes back with the PATCH (one Graph call fewer against the tenant's throttling budget); its
      // notes are another object, so writing them does not change it. Read only when Graph sent no task back.
      const updated = await patchWithEtag(
        `/planner/tasks/${encodeURIComponent(ref.id)}`,
        () => {
          const seen = justRead.get(ref.id);
          justRead.delete(ref.id);
          return seen ? Promise.resolve(seen) : readTask(ref.id);
        },
        (current) => ({
          ...taskFields(draft),
          ...(user && !(user in (current.assignments ?? {}))
            ? { assignments: { [user]: { '@odata.type': '#microsoft.graph.plannerAssignment', orderHint: ' !' } } }
            : {}),
        }),
        `Updating ${ref.key}`,
        true,
      );
      if (updated === null) return null;
      await patchWithEtag(
        `/planner/tasks/${encodeURIComponent(ref.id)}/details`,
        () => readDetails(ref.id),
        (current) => detailsFields(draft, current),
        `Writing the notes of ${ref.key}`,
      );
      const task = updated?.id ? updated : await readTask(ref.id);
      return task ? toRemote(task) : null;
    },

    async comment(ref, text) {
      const stamp = new Date(now()).toISOString().slice(0, 16).replace('T', ' ');
      const written = await patchWithEtag(
        `/planner/tasks/${encodeURIComponent(ref.id)}/details`,
        () => readDetails(ref.id),
        (current) => {
          const description = current.description ?? '';
          const at = description.indexOf(UPDATES_MARK);
          const head = at >= 0 ? description.slice(0, at).trim() : description.trim();
          const notes = notesOf({ description: head } as TaskDraft, description, `${stamp} UTC\n${text}`);
          return { description: notes };
        },
        `Adding the change to the notes of ${ref.key}`,
      );
      return written !== null;
    },

    async read(ref: TaskRef) {
      const task = await readTask(ref.id);
      if (task) justRead.set(ref.id, task);
      return task ? toRemote(task) : null;
    },
  };
}
