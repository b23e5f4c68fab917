import { createElement } from 'react';
import { TRACKER_KIND_LABELS, TRACKER_PAUSE_AFTER_FAILURES, SOURCE_ITEM_NOUNS, TRIAGE_STATE_LABELS, type TrackerKind } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { renderMail } from '../../mail/render.js';
import { recordAttempt as recordOutboxAttempt, retryAfterMs, type AttemptResult, type RetryPolicy } from '../../outbox/index.js';
import { TrackerPausedMail, trackerPausedSubject, trackerPausedText } from '../../mail/templates/TrackerPausedMail.js';
import { parseRetryAfter } from '../../sources/http.js';
import { shareUrlOf } from '../items/share-link.js';
import { adminAddresses } from '../admin/admin-guards.repo.js';
import type { RemoteTask, TaskDraft, TrackerConnector } from './connectors/connector.js';
import { createTrackedRecordsRepo, type RecordChange } from '../triage/triage-external.repo.js';
import { callInOutbox, createTrackersRepo, trackerStreak, type TrackerRow, type TrackerLinkRow, type TrackerOutboxRow } from './trackers.repo.js';
import { TrackerError } from './tracker-http.js';
import { refusalToCarry } from './tracker-tenants.repo.js';
import { usersSeeingTenant } from '../triage/triage-audience.repo.js';
import { TRACKER_DELIVERY } from './tracker-queue.js';
import type { TrackerServiceDeps } from './tracker.service.js';

const EXCERPT = 500;

/** What one call did: sent, to be retried (when), or failed for good. */
export interface CallResult extends AttemptResult {
  /** A comment waiting for its task's create: put back without counting as an attempt or a failure of the tracker. */
  waiting?: boolean;
}

export interface TrackerRuntime {
  deps: TrackerServiceDeps;
  /** The tracker's connector, or why there is none (tracker-auth.ts). */
  connectorFor(row: TrackerRow): Promise<TrackerConnector | string>;
  /** A graceful shutdown has begun: no new calls. */
  isStopping(): boolean;
}

/**
 * The calls to the trackers: each queued call made (create, update, comment), what the tracker answered written back
 * into the record and the link, every call logged; retryable failures (network, timeouts, 429 with its Retry-After,
 * 5xx) retried with backoff, and TRACKER_PAUSE_AFTER_FAILURES failed calls in a row pause the tracker and
 * mail the admins.
 */
export function createTrackerDelivery(rt: TrackerRuntime) {
  const { deps, connectorFor } = rt;
  const { db, clock, log } = deps;
  // The outbox's retry schedule: TRACKER_RETRY_BASE_MS doubling, Retry-After honoured up to its cap.
  const policy: RetryPolicy = {
    baseMs: deps.config.TRACKER_RETRY_BASE_MS,
    maxMs: TRACKER_DELIVERY.maxBackoffMs,
    maxRetryAfterMs: TRACKER_DELIVERY.maxRetryAfterMs,
    maxAttempts: TRACKER_DELIVERY.maxAttempts,
  };

  /** The task as the record and its item are now. */
  async function draftOf(tx: DbOrTx, link: TrackerLinkRow): Promise<TaskDraft | null> {
    const r = await createTrackedRecordsRepo(tx).get(link.recordId);
    if (!r) return null;
    const url = shareUrlOf(deps.publicUrl, { source: r.source, externalId: r.externalId });
    const description = [
      r.summary.trim(),
      '',
      `${SOURCE_ITEM_NOUNS[r.source]} ${r.externalId}${r.tenantName ? ` · Tenant: ${r.tenantName}` : ''}`,
      `Triage: ${TRIAGE_STATE_LABELS[r.state]}${r.dueDate ? ` · Due ${r.dueDate}` : ''}`,
      `Open in M365 Radar: ${url}`,
    ]
      .filter((line, i) => i > 0 || line)
      .join('\n');
    return {
      idempotencyKey: link.idempotencyKey,
      title: `${r.externalId}: ${r.title}`,
      description,
      dueDate: r.dueDate,
      priority: r.priority,
      assigneeEmail: r.ownerEmail,
      url,
    };
  }

  /** What a read found, stored on the link. */
  const remoteFields = (task: RemoteTask, now: Date) => ({
    externalId: task.id,
    externalKey: task.key,
    externalUrl: task.url,
    status: task.done ? 'done' : 'open',
    remoteState: task.state,
    remoteDone: task.done,
    remoteAssignee: task.assigneeEmail,
    remoteDue: task.dueDate,
    remoteUpdatedAt: task.updatedAt,
    lastError: null,
    updatedAt: now,
  });

  function classify(err: unknown, attempts: number): CallResult {
    if (!(err instanceof TrackerError)) throw err;
    const base = { statusCode: err.status, latencyMs: err.latencyMs, response: err.response.slice(0, EXCERPT), error: err.message };
    if (!err.retry) return { outcome: 'failed', ...base };
    const asked = err.status === 429 ? parseRetryAfter(err.retryAfter, clock.now().getTime()) : null;
    return { outcome: 'retrying', ...base, retryInMs: retryAfterMs(asked, attempts, policy) };
  }

  /** Makes one queued call; the link is brought up to date in the same step. */
  async function perform(row: TrackerOutboxRow, tracker: TrackerRow): Promise<CallResult> {
    const connector = await connectorFor(tracker);
    if (typeof connector === 'string') return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: connector };
    const repo = createTrackersRepo(db);
    const link = await repo.link(row.linkId);
    if (!link) return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: 'The task link is gone' };
    const refusal = await refusalToCarry(db, tracker, link.recordId);
    if (refusal) return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: refusal };
    const started = performance.now();
    const ok = (response: string): CallResult => ({
      outcome: 'sent',
      statusCode: null,
      latencyMs: Math.round(performance.now() - started),
      response,
      error: null,
    });
    try {
      const now = clock.now();
      if (row.action === 'comment') {
        if (!link.externalId || link.status === 'queued') {
          // The task is still being made: the comment waits for it (not a failure).
          return {
            outcome: 'retrying',
            statusCode: null,
            latencyMs: null,
            response: '',
            error: 'Waiting for the task to be created',
            retryInMs: 60_000,
            waiting: true,
          };
        }
        if (link.status === 'deleted')
          return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: 'The task was deleted in the tracker' };
        const added = await connector.comment({ id: link.externalId, key: link.externalKey ?? link.externalId }, row.text ?? '');
        if (!added) {
          await repo.updateLink(link.id, { status: 'deleted', updatedAt: now });
          return { outcome: 'failed', statusCode: 404, latencyMs: null, response: '', error: 'The task was deleted in the tracker' };
        }
        return ok(`Comment added to ${link.externalKey ?? link.externalId}`);
      }
      if (link.externalId && link.status !== 'deleted') {
        const ref = { id: link.externalId, key: link.externalKey ?? link.externalId };
        // What changed in the tracker since the last read comes back first (the later change wins, both logged), so an
        // update never silently overwrites an owner or due date someone set there.
        const before = await connector.read(ref);
        if (before) {
          await db.transaction(async (tx) => {
            await applyRemote(tx, tracker, link, before, now);
            await createTrackersRepo(tx).updateLink(link.id, { ...remoteFields(before, now), lastPulledAt: now });
          });
        }
        const draft = before ? await draftOf(db, link) : null;
        if (before && !draft) return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: 'The triage record is gone' };
        const updated = before && draft ? await connector.update(ref, draft) : null;
        if (!updated) {
          await repo.updateLink(link.id, { status: 'deleted', updatedAt: now });
          return {
            outcome: 'failed',
            statusCode: 404,
            latencyMs: null,
            response: '',
            error: 'The task was deleted in the tracker: push again to create it anew',
          };
        }
        await repo.updateLink(link.id, remoteFields(updated, now));
        return ok(`Updated ${updated.key}`);
      }
      const draft = await draftOf(db, link);
      if (!draft) return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: 'The triage record is gone' };
      // A create retried after a lost answer finds the task it made (the idempotency key is in it).
      const existing = link.status === 'deleted' ? null : await connector.findByKey(link.idempotencyKey, draft);
      const task = existing ?? (await connector.create(draft));
      await repo.updateLink(link.id, remoteFields(task, now));
      if (task.needsUpdate) await repo.enqueue({ trackerId: tracker.id, linkId: link.id, action: 'update', now, alone: true });
      return ok(existing ? `Found ${task.key}, made by an earlier attempt` : `Created ${task.key}`);
    } catch (err) {
      return classify(err, row.attempts);
    }
  }

  /** Logs a call, moves the outbox row and the tracker's failure streak; the call that pauses it mails the admins. */
  async function record(tracker: TrackerRow, row: TrackerOutboxRow | null, linkId: number | null, action: string, result: CallResult) {
    const now = clock.now();
    // Waiting for the task's create is not the tracker's failure: not logged, not counted, no streak.
    const waiting = result.waiting === true;
    const { outcome, mailed } = await db.transaction(async (tx) => {
      const repo = createTrackersRepo(tx);
      const recorded = await recordOutboxAttempt(tx, {
        now,
        attempt: result,
        row: row ? callInOutbox(row) : null,
        policy,
        uncounted: waiting,
        log: waiting ? null : (entry) => repo.insertAttempt({ trackerId: tracker.id, linkId, action, ...entry }),
        excerptChars: EXCERPT,
        streak: waiting ? null : trackerStreak(tracker.id, TRACKER_PAUSE_AFTER_FAILURES, `Paused after ${TRACKER_PAUSE_AFTER_FAILURES} failed calls in a row`),
      });
      if (row && recorded.outcome === 'failed' && linkId !== null && (row.action === 'create' || row.action === 'update')) {
        const link = await repo.link(linkId);
        if (link && !link.externalId) await repo.updateLink(linkId, { status: 'failed', lastError: result.error, updatedAt: now });
        else if (link) await repo.updateLink(linkId, { lastError: result.error, updatedAt: now });
      }
      const { streak } = recorded;
      if (!streak?.pausedNow) return { outcome: recorded.outcome, mailed: false };
      const props = {
        publicUrl: deps.publicUrl,
        trackerName: tracker.name,
        kindLabel: TRACKER_KIND_LABELS[tracker.kind as TrackerKind] ?? tracker.kind,
        failures: streak.failures,
        lastError: result.error ?? 'unknown',
        settingsUrl: `${deps.publicUrl}/admin?tab=integrations`,
      };
      const rendered = await renderMail(createElement(TrackerPausedMail, props), trackerPausedText(props));
      for (const to of await adminAddresses(tx, deps.config.ADMIN_EMAILS)) {
        await deps.mail.enqueue(tx, {
          kind: 'integration-paused', // stored kinds keep their name from before the rename
          to,
          subject: trackerPausedSubject(props),
          ...rendered,
          dedupeKey: `integration-paused:${tracker.id}:${now.toISOString()}:${to}`,
        });
      }
      log.warn({ trackerId: tracker.id, failures: streak.failures }, 'tracker paused after consecutive failures');
      return { outcome: recorded.outcome, mailed: true };
    });
    if (mailed) deps.mail.kick();
    return outcome;
  }

  /** Makes the due calls (or only `onlyIds`); a shutdown lets the call in progress finish and releases the rest. */
  async function deliverDue(onlyIds?: number[]): Promise<{ sent: number; retrying: number; failed: number }> {
    const result = { sent: 0, retrying: 0, failed: 0 };
    const repo = createTrackersRepo(db);
    const claimed = await repo.claimDue(clock.now(), TRACKER_DELIVERY.batchSize, TRACKER_DELIVERY.leaseMs, onlyIds);
    const trackers = new Map<number, TrackerRow | null>();
    for (const [index, row] of claimed.entries()) {
      if (rt.isStopping()) {
        await repo.release(
          claimed.slice(index).map((r) => r.id),
          clock.now(),
        );
        break;
      }
      if (!trackers.has(row.trackerId)) trackers.set(row.trackerId, await repo.byId(row.trackerId));
      const tracker = trackers.get(row.trackerId);
      if (!tracker) continue;
      const outcome = await record(tracker, row, row.linkId, row.action, await perform(row, tracker));
      result[outcome]++;
      // A pause stops the rest of this tracker's calls: they wait for the resume.
      if (outcome !== 'sent') trackers.set(row.trackerId, await repo.byId(row.trackerId));
      if (trackers.get(row.trackerId)?.paused) trackers.set(row.trackerId, null);
    }
    return result;
  }

  async function deliverRounds() {
    const total = { sent: 0, retrying: 0, failed: 0 };
    for (let round = 0; round < 50 && !rt.isStopping(); round++) {
      const r = await deliverDue();
      total.sent += r.sent;
      total.retrying += r.retrying;
      total.failed += r.failed;
      if (r.sent + r.retrying + r.failed === 0) break;
    }
    return total;
  }

  /** Writes what a read brought back into the record: one activity line per change, said to come from the tracker. */
  async function applyRemote(tx: DbOrTx, tracker: TrackerRow, link: TrackerLinkRow, task: RemoteTask, now: Date): Promise<boolean> {
    const records = createTrackedRecordsRepo(tx);
    const r = await records.get(link.recordId, true);
    if (!r) return false;
    const label = TRACKER_KIND_LABELS[tracker.kind as TrackerKind] ?? tracker.kind;
    const changes: { field: string; before: string; after: string }[] = [];
    const set: RecordChange = {};
    if (task.done && link.remoteDone !== true && r.state !== 'done') {
      Object.assign(set, { state: 'done', done_at: now });
      changes.push({ field: 'state', before: TRIAGE_STATE_LABELS[r.state], after: TRIAGE_STATE_LABELS.done });
    } else if (!task.done && link.remoteDone === true && r.state === 'done') {
      Object.assign(set, { state: 'in_progress', done_at: null });
      changes.push({ field: 'state', before: TRIAGE_STATE_LABELS.done, after: TRIAGE_STATE_LABELS.in_progress });
    }
    // Owner and due date: a change on the tracker's side comes back; when both sides changed since the last read, the
    // later change wins and the activity log says so.
    const localChanged = r.updatedAt !== null && (link.lastPulledAt === null || r.updatedAt > link.lastPulledAt);
    const remoteLater = !localChanged || (task.updatedAt !== null && r.updatedAt !== null && task.updatedAt > r.updatedAt);
    const conflicts: { field: string; kept: string; dropped: string; winner: string }[] = [];
    if (task.assigneeEmail && task.assigneeEmail !== link.remoteAssignee && task.assigneeEmail !== r.ownerEmail?.toLowerCase()) {
      const found = await records.userIdByEmail(task.assigneeEmail);
      // An assignee who may not see the record's tenant does not become its owner; the log says so.
      const userId = found !== null && (await usersSeeingTenant(tx, r.tenantId, [found])).has(found) ? found : null;
      if (found !== null && userId === null) {
        conflicts.push({
          field: 'owner',
          kept: r.ownerEmail ?? 'Unassigned',
          dropped: task.assigneeEmail,
          winner: 'M365 Radar (the assignee may not see this tenant)',
        });
      }
      if (userId !== null) {
        if (remoteLater) {
          set.owner_id = userId;
          changes.push({ field: 'owner', before: r.ownerEmail ?? 'Unassigned', after: task.assigneeEmail });
        } else conflicts.push({ field: 'owner', kept: r.ownerEmail ?? 'Unassigned', dropped: task.assigneeEmail, winner: 'M365 Radar' });
      }
    }
    if (task.dueDate !== link.remoteDue && task.dueDate !== r.dueDate && link.lastPulledAt !== null) {
      if (remoteLater) {
        Object.assign(set, { due_date: task.dueDate, due_source: 'manual' });
        changes.push({ field: 'dueDate', before: r.dueDate ?? 'None', after: task.dueDate ?? 'None' });
      } else conflicts.push({ field: 'dueDate', kept: r.dueDate ?? 'None', dropped: task.dueDate ?? 'None', winner: 'M365 Radar' });
    }
    await records.apply(link.recordId, set, now);
    if (changes.length > 0 || conflicts.length > 0) {
      const by = set.state === 'done' && task.closedBy ? ` by ${task.closedBy}` : '';
      await records.log(
        r,
        `${label} (${tracker.name})`,
        {
          changes,
          ...(conflicts.length ? { conflicts } : {}),
          source: `${set.state === 'done' ? `closed in ${label}` : `changed in ${label}`}${by}`,
          task: task.key,
        },
        now,
      );
    }
    return changes.length > 0;
  }

  return { classify, record, deliverDue, deliverRounds, applyRemote, remoteFields };
}
export type TrackerDelivery = ReturnType<typeof createTrackerDelivery>;
