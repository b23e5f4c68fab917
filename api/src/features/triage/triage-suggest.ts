import {
  savedSearchQuery,
  TRIAGE_PRIORITIES,
  TRIAGE_PRIORITY_LABELS,
  TRIAGE_STATE_LABELS,
  TRIAGE_STATES,
  type TriagePriority,
  type TriageState,
  type TriageSuggestion,
} from '@radar/contracts';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import type { ItemRow } from '../../db/schema/index.js';
import { requestChat } from '../../lib/ai-chat.js';
import { htmlToPlainText } from '../../lib/html.js';
import type { Logger } from '../../logger.js';
import { priorityReasonOf } from './triage-relevance.js';
import { createTriageRulesRepo, type TriageRuleRow } from './triage-rules.repo.js';
import { createTriageSuggestRepo, type PastDecisions } from './triage-suggest.repo.js';
import { createTriageRepo, type TriageRecordRow } from './triage.repo.js';
import type { TriagePersonRow } from './triage-users.repo.js';

/** Past owners count as a pattern from this many items on. */
const PATTERN_MIN = 2;
/** Past decisions say "not relevant" when at least this share of them did. */
const NOT_RELEVANT_SHARE = 0.6;
const REASON_CHARS = 240;

interface Basis {
  rules: TriageRuleRow[];
  past: PastDecisions;
  current: TriageRecordRow;
  ruleOwners: Map<number, TriagePersonRow>;
}

/** The suggestion the rules and the team's past assignments give, with its reason in one line. */
export function ruleBasedSuggestion(b: Basis): Omit<TriageSuggestion, 'source' | 'note'> {
  const reasons: string[] = [];
  const ownerRule = b.rules.find((r) => r.setOwnerId !== null);
  const stateRule = b.rules.find((r) => r.setState !== null);
  const priorityRule = b.rules.find((r) => r.setPriority !== null);
  const topOwner = b.past.owners[0];
  let owner: TriagePersonRow | null = null;
  if (ownerRule?.setOwnerId != null) {
    owner = b.ruleOwners.get(ownerRule.setOwnerId) ?? null;
    if (owner) reasons.push(`rule “${ownerRule.name}” gives it to ${owner.name}`);
  } else if (b.current.ownerId !== null && b.current.ownerEmail) {
    owner = { id: b.current.ownerId, email: b.current.ownerEmail, name: b.current.ownerName ?? b.current.ownerEmail };
  } else if (topOwner && topOwner.count >= PATTERN_MIN) {
    owner = topOwner;
    reasons.push(`${topOwner.name} owned ${topOwner.count} recent items of ${b.past.products.slice(0, 2).join(', ')}`);
  }
  let state: TriageState = b.current.state === 'new' ? 'relevant' : b.current.state;
  const decided = b.past.states.reduce((n, s) => n + s.count, 0);
  const notRelevant = b.past.states.find((s) => s.state === 'not_relevant')?.count ?? 0;
  if (stateRule?.setState) {
    state = stateRule.setState as TriageState;
    reasons.push(`rule “${stateRule.name}” says ${TRIAGE_STATE_LABELS[state]}`);
  } else if (decided >= PATTERN_MIN && notRelevant / decided >= NOT_RELEVANT_SHARE && b.current.state === 'new') {
    state = 'not_relevant';
    reasons.push(`${notRelevant} of ${decided} recent items of the same products were not relevant`);
  }
  let priority = b.current.priority;
  if (priorityRule?.setPriority) {
    priority = priorityRule.setPriority as TriagePriority;
    reasons.push(`rule “${priorityRule.name}” sets ${TRIAGE_PRIORITY_LABELS[priority]} priority`);
  } else {
    reasons.push(`${TRIAGE_PRIORITY_LABELS[priority]} priority: ${priorityReason(b.current)}`);
  }
  const reason = reasons.join('; ');
  return { state, owner, priority, reason: `${reason.charAt(0).toUpperCase()}${reason.slice(1)}`.slice(0, REASON_CHARS) };
}

/** "set by hand", "major change; raised: High relevance": where the priority came from, mid-sentence. */
const priorityReason = (r: TriageRecordRow) => {
  const reason = priorityReasonOf(r.priority, r.prioritySource);
  return `${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
};

const SYSTEM_PROMPT = [
  'You help a Microsoft 365 admin team triage changes announced by Microsoft (Message Center posts, roadmap items, service health issues).',
  'Given one item, the team rules that match it, who on the team owned similar items, and how similar items were decided, propose a triage.',
  'Answer with one JSON object only, no prose, no code fences: {"state": one of "new","relevant","not_relevant","in_progress","done", "ownerEmail": one of the candidate e-mails or null, "priority": one of "high","medium","low", "reason": one sentence of at most 200 characters}.',
  'Prefer what the matching rules say. Only pick an owner from the candidates. Say in the reason what the suggestion rests on.',
].join('\n');

function userMessage(item: ItemRow, b: Basis, base: Omit<TriageSuggestion, 'source' | 'note'>, candidates: TriagePersonRow[]): string {
  const text = htmlToPlainText(item.summary ?? item.bodyHtml ?? item.description ?? '').slice(0, 1500);
  return [
    `ITEM ${item.externalId} (${item.source}): ${item.title}`,
    `products: ${item.products.join(', ') || 'none'}`,
    item.isMajorChange ? 'major change' : null,
    item.actionRequiredBy ? `action required by ${item.actionRequiredBy.toISOString().slice(0, 10)}` : null,
    item.severity ? `severity: ${item.severity}` : null,
    item.category ? `category: ${item.category}` : null,
    `current triage: state ${b.current.state}, priority ${b.current.priority} (${priorityReason(b.current)}), due ${b.current.dueDate ?? 'none'}`,
    `text: ${text}`,
    '',
    `MATCHING RULES: ${b.rules.map((r) => `“${r.name}” sets ${[r.setOwnerId !== null ? 'owner' : null, r.setState ? `state ${r.setState}` : null, r.setPriority ? `priority ${r.setPriority}` : null].filter(Boolean).join(', ')}`).join('; ') || 'none'}`,
    `CANDIDATE OWNERS: ${candidates.map((c) => `${c.email} (${c.name}${b.past.owners.find((o) => o.id === c.id) ? `, owned ${b.past.owners.find((o) => o.id === c.id)?.count} similar items` : ''})`).join('; ') || 'none'}`,
    `SIMILAR ITEMS WERE DECIDED: ${b.past.states.map((s) => `${s.state} ${s.count}`).join(', ') || 'no history'}`,
    `RULE-BASED PROPOSAL: state ${base.state}, owner ${base.owner?.email ?? 'none'}, priority ${base.priority}`,
  ]
    .filter((l): l is string => l !== null)
    .join('\n');
}

/** The AI's answer, checked: every field one the product knows, the owner one of the candidates; null when unusable. */
export function readAiSuggestion(content: string, candidates: TriagePersonRow[]): Omit<TriageSuggestion, 'source' | 'note'> | null {
  const json = /\{[\s\S]*\}/.exec(content)?.[0];
  if (!json) return null;
  let parsed: { state?: unknown; ownerEmail?: unknown; priority?: unknown; reason?: unknown };
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch {
    return null;
  }
  if (!(TRIAGE_STATES as readonly unknown[]).includes(parsed.state) || !(TRIAGE_PRIORITIES as readonly unknown[]).includes(parsed.priority)) return null;
  const email = typeof parsed.ownerEmail === 'string' ? parsed.ownerEmail.trim().toLowerCase() : null;
  const owner = email ? (candidates.find((c) => c.email === email) ?? null) : null;
  const reason = typeof parsed.reason === 'string' && parsed.reason.trim() ? parsed.reason.trim().slice(0, REASON_CHARS) : null;
  if (!reason) return null;
  return { state: parsed.state as TriageState, priority: parsed.priority as TriagePriority, owner, reason };
}

/**
 * A suggestion for one record: from the enabled rules that match its item and the team's decisions on items of the
 * same products in the last 180 days, and, when AI_BASE_URL is set, from the AI service given the same facts (its
 * answer checked; on any failure the rule-based suggestion is answered with a note saying why).
 */
export async function suggestTriage(
  db: DbOrTx,
  deps: { config: Pick<Config, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_MODEL' | 'AI_TIMEOUT_MS'>; log: Logger },
  item: ItemRow,
  record: TriageRecordRow,
  now: Date,
): Promise<TriageSuggestion> {
  const rulesRepo = createTriageRulesRepo(db);
  const matching: TriageRuleRow[] = [];
  for (const rule of (await rulesRepo.list()).filter((r) => r.enabled)) {
    const query = savedSearchQuery.safeParse(rule.query);
    if (query.success && (await rulesRepo.candidates(query.data, [record.id], now)).length > 0) matching.push(rule);
  }
  // Only people who may see the record's tenant are suggested as its owner (a rule's owner, or someone who owned the like).
  const repo = createTriageRepo(db);
  const allRuleOwners = await repo.peopleById(matching.flatMap((r) => (r.setOwnerId !== null ? [r.setOwnerId] : [])));
  const found = await createTriageSuggestRepo(db).pastDecisions(record.id, item.products, now);
  const seeing = await repo.usersSeeing(record.tenantId, [...allRuleOwners.keys(), ...found.owners.map((o) => o.id)]);
  const ruleOwners = new Map([...allRuleOwners].filter(([id]) => seeing.has(id)));
  const past = { ...found, owners: found.owners.filter((o) => seeing.has(o.id)) };
  const basis: Basis = { rules: matching, past, current: record, ruleOwners };
  const base = ruleBasedSuggestion(basis);
  if (!deps.config.AI_BASE_URL) return { source: 'rules', ...base, note: null };

  const candidates = [
    ...new Map(
      [...ruleOwners.values(), ...past.owners, ...(base.owner ? [base.owner] : [])].map((p) => [p.id, { id: p.id, email: p.email, name: p.name }]),
    ).values(),
  ];
  try {
    const { content } = await requestChat(
      { baseUrl: deps.config.AI_BASE_URL, apiKey: deps.config.AI_API_KEY, model: deps.config.AI_MODEL, timeoutMs: deps.config.AI_TIMEOUT_MS },
      { system: SYSTEM_PROMPT, user: userMessage(item, basis, base, candidates), maxTokens: 300, what: 'suggestion' },
    );
    const suggestion = readAiSuggestion(content, candidates);
    if (suggestion) return { source: 'ai', ...suggestion, note: null };
    deps.log.warn({ itemId: item.externalId }, 'AI triage suggestion unusable: answered from rules');
    return { source: 'rules', ...base, note: 'The AI answer could not be used; this suggestion comes from the rules and past assignments.' };
  } catch (err) {
    deps.log.warn({ err, itemId: item.externalId }, 'AI triage suggestion failed: answered from rules');
    return {
      source: 'rules',
      ...base,
      note: `The AI service could not be asked (${(err as Error).message}); this suggestion comes from the rules and past assignments.`,
    };
  }
}
