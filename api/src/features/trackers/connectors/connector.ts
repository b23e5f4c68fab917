import type { ConnectionCheck, TriagePriority } from '@radar/contracts';

/** What a task says, as pushed: the item, the record's due date and priority, the link back. */
export interface TaskDraft {
  /** Written into the task so a create whose answer was lost finds it (see tracker_links). */
  idempotencyKey: string;
  title: string;
  /** Plain text: the item's summary, its id and tenant, the link back to M365 Radar. */
  description: string;
  dueDate: string | null;
  priority: TriagePriority;
  /** The owner's e-mail address, for trackers that can assign by it. */
  assigneeEmail: string | null;
  url: string;
}

/** A task as a tracker has it now. */
export interface RemoteTask {
  id: string;
  key: string;
  url: string;
  /** The tracker's own name of its state. */
  state: string;
  /** Completed, resolved or closed. */
  done: boolean;
  /** Who closed it (the last status change to a done state), when the tracker says. */
  closedBy: string | null;
  assigneeEmail: string | null;
  dueDate: string | null;
  updatedAt: Date | null;
  /** The task was made but not all of it was written (Planner's notes are a second call): an update is queued. */
  needsUpdate?: boolean;
}

/** A task by the ids the tracker gave it. */
export interface TaskRef {
  id: string;
  key: string;
}

/** One tracker's calls; each throws a TrackerError when the tracker did not do it. */
export interface TrackerConnector {
  /** The credentials, the project or table, and the permissions: one check each, saying what is missing. */
  test(): Promise<ConnectionCheck[]>;
  /** The task carrying this idempotency key, if one exists (the draft narrows the search where a tracker cannot query by it). */
  findByKey(idempotencyKey: string, draft: TaskDraft): Promise<RemoteTask | null>;
  create(draft: TaskDraft): Promise<RemoteTask>;
  /** Brings the task's title, description, due date and priority up to date; null when it was deleted in the tracker. */
  update(ref: TaskRef, draft: TaskDraft): Promise<RemoteTask | null>;
  /** Adds a comment; false when the task was deleted in the tracker. */
  comment(ref: TaskRef, text: string): Promise<boolean>;
  /** The task as it is now; null when it was deleted. */
  read(ref: TaskRef): Promise<RemoteTask | null>;
}
