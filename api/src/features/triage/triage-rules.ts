import { savedSearchQuery, TRIAGE_STATE_LABELS, type TriagePriority, type TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { createTriageNotificationsRepo, type NewTriageEvent } from './triage-notifications.repo.js';
import { createTriageRulesRepo, type RuleCandidate, type TriageRuleRow } from './triage-rules.repo.js';
import { createTriageRepo } from './triage.repo.js';
import type { TrackerPort } from './tracker-port.js';

/**
 * Runs the enabled triage rules, in order, over `records` (the records a sync just opened) or over every open
 * record ('open', an admin's request); first, a rule matching a roadmap item of `roadmapItems` (a
 * sync's new and changed roadmap items; every one for 'open') that has no record opens it. A rule sets only what nobody decided yet: an owner where there is none, a
 * state where it is still New, a priority that is still the default. So the first rule that matches and sets a
 * field decides it, a person's decision always stands, and running the rules twice changes nothing. A rule whose
 * saved view no longer parses is skipped (and logged). A rule that creates tasks queues a push of every record it
 * matches to its tracker (made after the transaction commits). Returns how many records changed or were pushed; every
 * change is logged and an owner a rule sets is told by mail, in the caller's transaction.
 */
export async function applyTriageRules(
  tx: DbOrTx,
  records: readonly number[] | 'open',
  now: Date,
  deps: { trackers: TrackerPort; log?: Logger },
  roadmapItems: readonly number[] | 'all' = records === 'open' ? 'all' : [],
): Promise<number> {
  const { trackers, log } = deps;
  if (records !== 'open' && records.length === 0 && roadmapItems !== 'all' && roadmapItems.length === 0) return 0;
  const repo = createTriageRulesRepo(tx);
  const rules = (await repo.list()).filter((r) => r.enabled);
  if (rules.length === 0) return 0;
  // Roadmap items are not triaged by default: a rule that matches one opens its record first (closed before tracking
  // when the item was already past at the starting line, so rules never set anything on it).
  let recordIds = records;
  if (roadmapItems === 'all' || roadmapItems.length > 0) {
    const matched = new Set<number>();
    for (const rule of rules) {
      const query = savedSearchQuery.safeParse(rule.query);
      if (query.success) for (const id of await repo.roadmapMatches(query.data, roadmapItems, now)) matched.add(id);
    }
    const opened = await createTriageRepo(tx).openRecords({ itemIds: [...matched] }, now, 'rule');
    if (recordIds !== 'open') recordIds = [...recordIds, ...opened];
  }
  if (recordIds !== 'open' && recordIds.length === 0) return 0;
  const changedRecords = new Set<number>();
  const events: NewTriageEvent[] = [];
  const ownerEmails = new Map<number, string>();
  const ownerEmail = async (id: number) => {
    if (!ownerEmails.has(id)) ownerEmails.set(id, (await createTriageRepo(tx).person(id))?.email ?? '');
    return ownerEmails.get(id) ?? '';
  };
  const seen = new Map<string, boolean>();
  /** Whether the rule's owner may see records of the tenant (read once per owner and tenant in a run). */
  const ownerSees = async (id: number, tenantId: number | null) => {
    const key = `${id}:${tenantId}`;
    if (!seen.has(key)) seen.set(key, (await createTriageRepo(tx).usersSeeing(tenantId, [id])).has(id));
    return seen.get(key) ?? false;
  };
  for (const rule of rules) {
    const query = savedSearchQuery.safeParse(rule.query);
    if (!query.success) {
      log?.warn({ ruleId: rule.id, issues: query.error.issues }, 'triage rule skipped: its view no longer reads as list filters');
      continue;
    }
    const entries: { candidate: RuleCandidate; rule: TriageRuleRow; changes: unknown[]; notes: string[] }[] = [];
    for (const candidate of await repo.candidates(query.data, recordIds, now)) {
      const set: { ownerId?: number; state?: TriageState; priority?: TriagePriority } = {};
      const fields: Partial<Record<'owner' | 'state' | 'priority', number>> = {};
      const changes: { field: string; before: string | null; after: string | null }[] = [];
      const notes: string[] = [];
      if (rule.setOwnerId !== null && candidate.ownerId === null && !(await ownerSees(rule.setOwnerId, candidate.tenantId))) {
        // An owner who may not see the record's tenant is not given it: the record stays unassigned, and the log says why.
        notes.push(`${await ownerEmail(rule.setOwnerId)} may not see ${candidate.tenantName ?? `tenant ${candidate.tenantId}`}: left unassigned`);
      } else if (rule.setOwnerId !== null && candidate.ownerId === null) {
        set.ownerId = rule.setOwnerId;
        fields.owner = rule.id;
        changes.push({ field: 'owner', before: null, after: (await ownerEmail(rule.setOwnerId)) || null });
        events.push({
          userId: rule.setOwnerId,
          kind: 'assigned',
          recordId: candidate.id,
          dedupeKey: `assigned:${candidate.id}:${rule.setOwnerId}:rule${rule.id}`,
        });
      }
      if (rule.setState !== null && candidate.state === 'new' && rule.setState !== 'new') {
        set.state = rule.setState as TriageState;
        fields.state = rule.id;
        changes.push({ field: 'state', before: TRIAGE_STATE_LABELS.new, after: TRIAGE_STATE_LABELS[set.state] });
      }
      if (rule.setPriority !== null && candidate.prioritySource !== 'manual' && candidate.prioritySource !== 'rule') {
        set.priority = rule.setPriority as TriagePriority;
        fields.priority = rule.id;
        if (set.priority !== candidate.priority) changes.push({ field: 'priority', before: candidate.priority, after: set.priority });
      }
      // A rule that pushes to a tracker queues the record's task (one per record and tracker: a second match updates it).
      // A tracker that may not carry the record's private tenant is not pushed to, and the log says why.
      if (rule.createTaskIn !== null) {
        const refusal = await trackers.refusal(tx, rule.createTaskIn, candidate.id);
        if (refusal) notes.push(refusal);
        else {
          await trackers.queuePush(tx, rule.createTaskIn, candidate.id, now);
          changedRecords.add(candidate.id);
        }
      }
      if (Object.keys(fields).length === 0) {
        if (notes.length) entries.push({ candidate, rule, changes, notes });
        continue;
      }
      await repo.applyToRecord(candidate.id, set, fields, now);
      changedRecords.add(candidate.id);
      if (changes.length || notes.length) entries.push({ candidate, rule, changes, notes });
    }
    await repo.logRuleChanges(entries, now);
  }
  await createTriageNotificationsRepo(tx).add(events, now);
  // A post a rule made Relevant or In progress opens the roadmap items it announces.
  await createTriageRepo(tx).openAnnounced([...changedRecords], now);
  return changedRecords.size;
}
