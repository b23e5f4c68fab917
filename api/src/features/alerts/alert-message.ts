import { formatCount, RELEVANCE_LEVEL_LABELS, SOURCE_ITEM_NOUNS, SOURCE_LABELS } from '@radar/contracts';
import type { AlertItem, AlertSection, AlertWebhookPayload } from '@radar/contracts';

/** One message to one channel: one or more saved searches with the items that match (the channel-neutral form). */
export interface AlertMessage {
  publicId: string;
  trigger: AlertWebhookPayload['trigger'];
  createdAt: Date;
  window: { from: Date | null; to: Date };
  channel: { id: number; name: string };
  sections: AlertSection[];
  /** /notifications: where alerts are managed. */
  settingsUrl: string;
  /** The heading, where the message sets its own (triage notices); otherwise it is said from the sections. */
  title?: string;
  /** The tenants whose relevance its items tell (relevance moves): kept with the delivery, never sent. */
  relevanceTenantIds?: number[];
}

/** Saved searches per message: keeps a Teams card under its 28 KB and a Slack message under 50 blocks. */
export const SECTIONS_PER_MESSAGE = 3;

const TRIGGER_PREFIX: Record<AlertMessage['trigger'], string> = {
  instant: '',
  daily: 'Daily digest: ',
  weekly: 'Weekly digest: ',
  triage: 'Triage: ',
  test: 'Test: ',
};

/** The one-line title of a message (Teams card heading, Slack header and fallback text, mail subject). */
export function alertTitle(m: Pick<AlertMessage, 'trigger' | 'sections' | 'title'>): string {
  if (m.title) return m.title;
  if (m.trigger === 'test') return 'Test alert from M365 Radar';
  const total = m.sections.reduce((n, s) => n + s.total, 0);
  const where =
    m.sections.length === 1 && m.sections[0] ? `“${m.sections[0].savedSearch.name}”` : formatCount(m.sections.length, 'saved search', 'saved searches');
  return `${TRIGGER_PREFIX[m.trigger]}${formatCount(total, 'new or changed item')} in ${where}`;
}

export const SOURCE_BADGE: Record<AlertItem['source'], string> = SOURCE_LABELS;

/** What changed, in one short line: "New", "Removed from the feed", or the first changed fields. */
export function changeLine(item: AlertItem, maxFields = 3): string {
  if (item.change === 'new') return `New ${SOURCE_ITEM_NOUNS[item.source]}`;
  if (item.change === 'removed') return item.changes[0] ?? 'Removed from the feed';
  if (item.change === 'triage') return item.changes.join(' · ');
  const lines = item.changes.slice(0, maxFields);
  const rest = item.changes.length - lines.length;
  const text = lines.join(' · ') || 'Updated';
  return `${item.change === 'restored' ? 'Back in the feed. ' : ''}${text}${rest > 0 ? ` · +${rest} more` : ''}`;
}

/**
 * An item's relevance in one line, "High relevance · Contoso: 1,240 people used Teams in the last 30 days", or null
 * when it has none to tell. The tenant is always named: a channel's readers are not only the search's owner.
 */
export function relevanceLine(item: AlertItem): string | null {
  const r = item.relevance;
  if (!r || r.level === 'unknown') return null;
  return `${RELEVANCE_LEVEL_LABELS[r.level]} relevance · ${r.tenant}: ${r.reason}`;
}

/** Cuts text to `max` characters with an ellipsis. */
export const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** The sample sections of a "Send test" message: one made-up item, so a receiver shows what real alerts look like. */
export function testSections(publicUrl: string): AlertSection[] {
  return [
    {
      savedSearch: { id: 0, name: 'Test saved search', scope: 'personal' },
      viewUrl: `${publicUrl}/dashboard`,
      total: 1,
      more: 0,
      items: [
        {
          id: 'roadmap-0',
          source: 'roadmap',
          externalId: '0',
          title: 'This is a test alert: your channel is connected',
          change: 'changed',
          changes: ['Status: In development → Rolling out'],
          url: `${publicUrl}/dashboard`,
          changedAt: new Date(0).toISOString(),
        },
      ],
    },
  ];
}
