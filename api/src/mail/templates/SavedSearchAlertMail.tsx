import { Link, Section, Text } from './components.js';
import { SOURCE_LABELS, type AlertItem, type AlertSection } from '@radar/contracts';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';
import { RelevanceLine, relevanceLabel } from './RelevanceLine.js';

/** Items a mail lists per saved search before "and N more". */
export const MAIL_ITEMS_PER_SEARCH = 25;

export interface SavedSearchAlertMailProps {
  publicUrl: string;
  /** The message's title (also the subject): "3 new or changed items in “Teams Rooms”". */
  title: string;
  firstName?: string | null;
  sections: (AlertSection & { unsubscribeUrl: string })[];
  /** Stops e-mail for every saved search in this mail (also the List-Unsubscribe target). */
  unsubscribeAllUrl: string;
  settingsUrl: string;
  /** "after the latest sync" or "since yesterday's digest", for the intro line. */
  periodText: string;
}

const SOURCE = SOURCE_LABELS;
const KIND: Record<AlertItem['change'], string> = {
  new: 'New',
  changed: 'Updated',
  removed: 'Removed',
  restored: 'Back in the feed',
  reached_tenant: 'Reached your tenant',
  triage: 'Triage',
};

/** The item's relevance chip, or null (none to tell); the tenant is named: a channel's readers are not only its owner. */
function relevanceOf(item: AlertItem) {
  const r = item.relevance;
  return r && r.level !== 'unknown' ? { level: r.level, label: relevanceLabel(r.level), reason: `${r.tenant}: ${r.reason}` } : null;
}

function ItemRow({ item }: { item: AlertItem }) {
  const relevance = relevanceOf(item);
  return (
    <Section style={{ borderTop: `1px solid ${mailColors.border}`, padding: '10px 0 2px' }}>
      <Text style={{ fontSize: '12px', color: mailColors.muted, margin: '0 0 2px', textTransform: 'uppercase', letterSpacing: '0.5px' }}>
        {`${SOURCE[item.source]} · ${item.externalId} · ${KIND[item.change]}`}
      </Text>
      <Text style={{ fontSize: '15px', fontWeight: 600, color: mailColors.text, margin: '0 0 4px' }}>
        <Link href={item.url} style={{ color: mailColors.accent, textDecoration: 'underline' }}>
          {item.title}
        </Link>
      </Text>
      {relevance ? <RelevanceLine relevance={relevance} /> : null}
      {item.changes.map((line) => (
        <Text key={line} style={{ fontSize: '13px', lineHeight: '19px', color: mailColors.text, margin: '0 0 4px' }}>
          {line}
        </Text>
      ))}
    </Section>
  );
}

/** One mail per channel per alert: each saved search with its new and changed items and its own stop link. */
export function SavedSearchAlertMail({ publicUrl, title, firstName, sections, unsubscribeAllUrl, settingsUrl, periodText }: SavedSearchAlertMailProps) {
  return (
    <Layout
      preview={title}
      heading={title}
      publicUrl={publicUrl}
      unsubscribe={
        <Text style={{ fontSize: '12px', color: mailColors.muted, margin: 0 }}>
          {`You get this mail because you saved ${sections.length === 1 ? 'this search' : 'these searches'} with e-mail alerts in ${PRODUCT_NAME}. `}
          <Link href={unsubscribeAllUrl} style={{ color: mailColors.muted, textDecoration: 'underline' }}>
            Stop these e-mails
          </Link>
          {' · '}
          <Link href={settingsUrl} style={{ color: mailColors.muted, textDecoration: 'underline' }}>
            Notification settings
          </Link>
        </Text>
      }
    >
      <Paragraph>{`${firstName ? `Hi ${firstName}, here` : 'Here'} is what matches your saved ${sections.length === 1 ? 'search' : 'searches'} ${periodText}.`}</Paragraph>
      {sections.map((section) => (
        <Section key={section.savedSearch.id} style={{ margin: '16px 0 8px' }}>
          <Text style={{ fontSize: '17px', fontWeight: 700, color: mailColors.text, margin: '0 0 6px' }}>
            <Link href={section.viewUrl} style={{ color: mailColors.text, textDecoration: 'none' }}>
              {section.savedSearch.name}
            </Link>
            {` (${section.total})`}
          </Text>
          {section.items.slice(0, MAIL_ITEMS_PER_SEARCH).map((item) => (
            <ItemRow key={item.id} item={item} />
          ))}
          <Text style={{ fontSize: '13px', color: mailColors.muted, margin: '8px 0 0' }}>
            <Link href={section.viewUrl} style={{ color: mailColors.accent }}>
              {section.total > Math.min(section.items.length, MAIL_ITEMS_PER_SEARCH)
                ? `and ${section.total - Math.min(section.items.length, MAIL_ITEMS_PER_SEARCH)} more: open the search in ${PRODUCT_NAME}`
                : `Open the search in ${PRODUCT_NAME}`}
            </Link>
            {' · '}
            <Link href={section.unsubscribeUrl} style={{ color: mailColors.muted }}>
              Stop e-mails for this search
            </Link>
          </Text>
        </Section>
      ))}
      <Note>Saved searches are checked after every sync of the roadmap and Message Center.</Note>
    </Layout>
  );
}

/** Plain-text part, written by hand: one line per item and change. */
export function savedSearchAlertText({ title, firstName, sections, unsubscribeAllUrl, settingsUrl, periodText }: SavedSearchAlertMailProps): string {
  const lines = [
    title,
    '',
    `${firstName ? `Hi ${firstName}, here` : 'Here'} is what matches your saved ${sections.length === 1 ? 'search' : 'searches'} ${periodText}.`,
  ];
  for (const section of sections) {
    lines.push('', '====', `${section.savedSearch.name} (${section.total})`);
    for (const item of section.items.slice(0, MAIL_ITEMS_PER_SEARCH)) {
      const relevance = relevanceOf(item);
      lines.push(
        '',
        `${SOURCE[item.source]} · ${item.externalId} · ${KIND[item.change]}`,
        item.title,
        ...(relevance ? [`${relevance.label}: ${relevance.reason}`] : []),
        ...item.changes.map((l) => `* ${l}`),
        `Open: ${item.url}`,
      );
    }
    const more = section.total - Math.min(section.items.length, MAIL_ITEMS_PER_SEARCH);
    lines.push('', `${more > 0 ? `and ${more} more: ` : 'Open the search: '}${section.viewUrl}`, `Stop e-mails for this search: ${section.unsubscribeUrl}`);
  }
  lines.push('', '----', `Stop these e-mails: ${unsubscribeAllUrl}`, `Notification settings: ${settingsUrl}`);
  return lines.join('\n');
}
