import { Button, Link, Section, Text } from './components.js';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';
import { RelevanceLine, type MailRelevance } from './RelevanceLine.js';

export interface DigestMailEntry {
  title: string;
  /** The item on the dashboard. */
  url: string;
  /** "Roadmap ID 500101" or "MC900001". */
  idLabel: string;
  /** Status for roadmap items, services for messages. */
  meta: string | null;
  /** A plain-text preview (already cut). */
  preview: string | null;
  /**
   * A signed-in reader's relevance of the item (the highest among their tenants): "High relevance" and its reason,
   * with the tenant's name when they see several. Absent for a visitor, an item of no tenant of theirs, and Unknown.
   */
  relevance?: MailRelevance;
}

export interface DigestMailSection {
  title: string;
  entries: DigestMailEntry[];
  /** Entries beyond those listed (shown as "and N more"). */
  more: number;
}

export interface WeeklyDigestMailProps {
  publicUrl: string;
  firstName?: string | null;
  /** 'Feb 1, 2026' – 'Feb 8, 2026'. */
  startFormatted: string;
  endFormatted: string;
  featured: DigestMailEntry[];
  sections: DigestMailSection[];
  /** /weekly-digest, the full week on the site. */
  digestPageUrl: string;
  unsubscribeUrl: string;
  /** Staff (moderators and admins) only: the change-health score of the triage they may see, and what costs it points. */
  changeHealth?: { score: number; open: number; costs: { label: string; records: number; points: number }[]; url: string };
}

function changeHealthLine(h: NonNullable<WeeklyDigestMailProps['changeHealth']>): string {
  const costs = h.costs.map((c) => `${c.label.toLowerCase()}: ${c.records} (−${c.points})`).join('; ');
  return `Change health ${h.score}/100 over ${h.open} open ${h.open === 1 ? 'item' : 'items'}${costs ? ` — ${costs}` : ''}.`;
}

export function weeklyDigestSubject(p: Pick<WeeklyDigestMailProps, 'startFormatted' | 'endFormatted'>): string {
  return `Your ${PRODUCT_NAME} weekly digest: ${p.startFormatted} – ${p.endFormatted}`;
}

const total = (sections: DigestMailSection[]) => sections.reduce((n, s) => n + s.entries.length + s.more, 0);

function Entry({ entry, highlight }: { entry: DigestMailEntry; highlight?: boolean }) {
  return (
    <Section
      style={{
        padding: '8px 12px',
        margin: '0 0 8px',
        borderLeft: `3px solid ${highlight ? '#c19c00' : mailColors.accent}`,
        backgroundColor: highlight ? '#fff8dc' : mailColors.card,
      }}
    >
      <Text style={{ fontSize: '15px', fontWeight: 600, margin: '0 0 2px', color: mailColors.text }}>
        <Link href={entry.url} style={{ color: highlight ? '#3b2f00' : mailColors.accent, textDecoration: 'underline' }}>
          {entry.title}
        </Link>
      </Text>
      <Text style={{ fontSize: '12px', margin: '0 0 2px', color: highlight ? '#4d4000' : mailColors.muted }}>
        {[entry.idLabel, entry.meta].filter(Boolean).join(' · ')}
      </Text>
      {entry.relevance ? <RelevanceLine relevance={entry.relevance} /> : null}
      {entry.preview ? (
        <Text style={{ fontSize: '13px', lineHeight: '19px', margin: 0, color: highlight ? '#3b2f00' : mailColors.text }}>{entry.preview}</Text>
      ) : null}
    </Section>
  );
}

/** The Sunday digest: featured items, then new and updated roadmap items and Message Center posts of the week. */
export function WeeklyDigestMail(p: WeeklyDigestMailProps) {
  const count = total(p.sections);
  return (
    <Layout
      preview={`${count} new and updated Microsoft 365 items, ${p.startFormatted} – ${p.endFormatted}`}
      heading="Your weekly Microsoft 365 digest"
      publicUrl={p.publicUrl}
      unsubscribe={
        <Text style={{ fontSize: '12px', color: mailColors.muted, margin: 0 }}>
          {`You get this mail because you subscribed to the ${PRODUCT_NAME} weekly digest. `}
          <Link href={p.unsubscribeUrl} style={{ color: mailColors.muted, textDecoration: 'underline' }}>
            Unsubscribe from the weekly digest
          </Link>
        </Text>
      }
    >
      <Paragraph>{`${p.firstName ? `Hi ${p.firstName}, here` : 'Here'} is what changed in the roadmap and Message Center from ${p.startFormatted} to ${p.endFormatted}.`}</Paragraph>
      {p.changeHealth ? (
        <Section style={{ margin: '8px 0 12px', padding: '8px 12px', backgroundColor: mailColors.page, borderRadius: '6px' }}>
          <Text style={{ fontSize: '14px', color: mailColors.text, margin: 0 }}>
            {changeHealthLine(p.changeHealth)}{' '}
            <Link href={p.changeHealth.url} style={{ color: mailColors.accent }}>
              See the queue
            </Link>
          </Text>
        </Section>
      ) : null}
      {count === 0 && p.featured.length === 0 ? <Paragraph>No new or updated Microsoft 365 items found in the past 7 days.</Paragraph> : null}
      {p.featured.length > 0 ? (
        <Section style={{ margin: '8px 0 12px' }}>
          <Text style={{ fontSize: '17px', fontWeight: 700, color: mailColors.text, margin: '0 0 8px' }}>Featured this week</Text>
          {p.featured.map((e) => (
            <Entry key={e.url} entry={e} highlight />
          ))}
        </Section>
      ) : null}
      {p.sections
        .filter((s) => s.entries.length > 0)
        .map((s) => (
          <Section key={s.title} style={{ margin: '8px 0 12px' }}>
            <Text style={{ fontSize: '17px', fontWeight: 700, color: mailColors.text, margin: '0 0 8px' }}>{`${s.title} (${s.entries.length + s.more})`}</Text>
            {s.entries.map((e) => (
              <Entry key={e.url} entry={e} />
            ))}
            {s.more > 0 ? (
              <Text style={{ fontSize: '13px', color: mailColors.muted, margin: '0 0 8px' }}>
                {`and ${s.more} more — `}
                <Link href={p.digestPageUrl} style={{ color: mailColors.accent }}>
                  see them all
                </Link>
              </Text>
            ) : null}
          </Section>
        ))}
      <Button
        href={p.digestPageUrl}
        style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '14px' }}
      >
        Open the weekly digest
      </Button>
      <Note>{`${PRODUCT_NAME} sends this digest every Sunday.`}</Note>
    </Layout>
  );
}

/** Plain-text part, written by hand: one line per item with its link. */
export function weeklyDigestText(p: WeeklyDigestMailProps): string {
  const lines = [
    'Your weekly Microsoft 365 digest',
    '',
    `${p.firstName ? `Hi ${p.firstName}, here` : 'Here'} is what changed in the roadmap and Message Center from ${p.startFormatted} to ${p.endFormatted}.`,
  ];
  if (p.changeHealth) lines.push('', `${changeHealthLine(p.changeHealth)} ${p.changeHealth.url}`);
  if (total(p.sections) === 0 && p.featured.length === 0) lines.push('', 'No new or updated Microsoft 365 items found in the past 7 days.');
  const block = (title: string, entries: DigestMailEntry[], more: number) => {
    if (entries.length === 0) return;
    lines.push('', `== ${title} (${entries.length + more}) ==`);
    for (const e of entries) {
      lines.push(`* ${e.title}`, `  ${[e.idLabel, e.meta].filter(Boolean).join(' · ')}`);
      if (e.relevance) lines.push(`  ${e.relevance.label}: ${e.relevance.reason}`);
      lines.push(`  ${e.url}`);
    }
    if (more > 0) lines.push(`  and ${more} more: ${p.digestPageUrl}`);
  };
  block('Featured this week', p.featured, 0);
  for (const s of p.sections) block(s.title, s.entries, s.more);
  lines.push(
    '',
    `The whole week: ${p.digestPageUrl}`,
    '',
    `${PRODUCT_NAME} sends this digest every Sunday.`,
    `Unsubscribe from the weekly digest: ${p.unsubscribeUrl}`,
  );
  return lines.join('\n');
}
