import { Link, Section, Text } from './components.js';
import { TRIAGE_MAIL_KIND_LABELS, type TriageMailKind } from '@radar/contracts';
import { Layout, mailColors, Paragraph, PRODUCT_NAME } from './Layout.js';

export interface TriageMailItem {
  title: string;
  /** The provider id (MC123456, 412345, EX123456). */
  providerId: string;
  url: string;
  tenantName: string | null;
  dueDate: string | null;
  /** Who gave it or mentioned the reader. */
  actorName: string | null;
  /** The comment that mentioned the reader (cut). */
  excerpt: string | null;
}

export interface TriageMailSection {
  kind: TriageMailKind;
  items: TriageMailItem[];
  /** Stops this kind of triage mail. */
  unsubscribeUrl: string;
}

export interface TriageMailProps {
  publicUrl: string;
  firstName: string | null;
  sections: TriageMailSection[];
  /** Stops every kind in this mail (also the List-Unsubscribe target). */
  unsubscribeAllUrl: string;
  queueUrl: string;
}

const HEADINGS: Record<TriageMailKind, string> = {
  assigned: 'Given to you',
  mentioned: 'You were mentioned',
  due_soon: 'Due in 7 days',
  overdue: 'Overdue',
  change_health: 'Change health',
};

export function triageSubject(sections: Pick<TriageMailSection, 'kind' | 'items'>[]): string {
  const count = sections.reduce((n, s) => n + s.items.length, 0);
  const only = sections.length === 1 ? sections[0] : undefined;
  if (only?.kind === 'assigned') return count === 1 ? `An item was given to you: ${only.items[0]?.title ?? ''}` : `${count} items were given to you`;
  if (only?.kind === 'mentioned') return count === 1 ? `You were mentioned on ${only.items[0]?.title ?? 'an item'}` : `You were mentioned on ${count} items`;
  if (only?.kind === 'overdue') return count === 1 ? `Overdue: ${only.items[0]?.title ?? ''}` : `${count} of your items are overdue`;
  if (only?.kind === 'due_soon') return count === 1 ? `Due in 7 days: ${only.items[0]?.title ?? ''}` : `${count} of your items are due in 7 days`;
  return `Your ${PRODUCT_NAME} triage: ${count} updates`;
}

/** What happened to an item, in one line: who gave it or mentioned you, the tenant, the due date. */
export function triageLine(kind: TriageMailKind, item: TriageMailItem): string {
  const parts = [item.tenantName ? `Tenant: ${item.tenantName}` : null, item.dueDate ? `Due ${item.dueDate}` : null];
  if (kind === 'assigned' && item.actorName) parts.unshift(`From ${item.actorName}`);
  if (kind === 'mentioned' && item.actorName) parts.unshift(`By ${item.actorName}`);
  return parts.filter(Boolean).join(' · ');
}

/** One user's triage mail of the day: what was given to them, where they were mentioned, what is due or overdue. */
export function TriageMail({ publicUrl, firstName, sections, unsubscribeAllUrl, queueUrl }: TriageMailProps) {
  return (
    <Layout
      preview={triageSubject(sections)}
      heading="Your triage"
      publicUrl={publicUrl}
      unsubscribe={
        <>
          You get this mail because items in {PRODUCT_NAME} were given to you or you were mentioned.{' '}
          <Link href={unsubscribeAllUrl} style={{ color: mailColors.muted, textDecoration: 'underline' }}>
            Stop these mails
          </Link>
        </>
      }
    >
      <Paragraph>{firstName ? `Hello ${firstName},` : 'Hello,'}</Paragraph>
      {sections.map((section) => (
        <Section key={section.kind} style={{ margin: '16px 0 8px' }}>
          <Text style={{ fontSize: '17px', fontWeight: 700, margin: '0 0 6px', color: mailColors.text }}>{HEADINGS[section.kind]}</Text>
          {section.items.map((item) => (
            <Section
              key={`${section.kind}:${item.providerId}:${item.tenantName ?? ''}`}
              style={{ borderTop: `1px solid ${mailColors.border}`, padding: '8px 0 2px' }}
            >
              <Text style={{ margin: 0, fontSize: '15px' }}>
                <Link href={item.url} style={{ color: mailColors.accent, textDecoration: 'underline' }}>
                  {item.title}
                </Link>{' '}
                <span style={{ color: mailColors.muted, fontFamily: 'monospace' }}>{item.providerId}</span>
              </Text>
              {triageLine(section.kind, item) ? (
                <Text style={{ margin: '2px 0 0', fontSize: '13px', color: mailColors.muted }}>{triageLine(section.kind, item)}</Text>
              ) : null}
              {item.excerpt ? <Text style={{ margin: '4px 0 0', fontSize: '14px', fontStyle: 'italic', color: mailColors.text }}>“{item.excerpt}”</Text> : null}
            </Section>
          ))}
          <Text style={{ margin: '6px 0 0', fontSize: '12px', color: mailColors.muted }}>
            <Link href={section.unsubscribeUrl} style={{ color: mailColors.muted, textDecoration: 'underline' }}>
              Stop mails about {TRIAGE_MAIL_KIND_LABELS[section.kind].toLowerCase()}
            </Link>
          </Text>
        </Section>
      ))}
      <Paragraph>
        <Link href={queueUrl} style={{ color: mailColors.accent }}>
          Open my queue
        </Link>
      </Paragraph>
    </Layout>
  );
}

export function triageText(p: TriageMailProps): string {
  const out = [p.firstName ? `Hello ${p.firstName},` : 'Hello,', ''];
  for (const section of p.sections) {
    out.push(HEADINGS[section.kind].toUpperCase());
    for (const item of section.items) {
      out.push(`- ${item.title} (${item.providerId})`, `  ${item.url}`);
      const detail = triageLine(section.kind, item);
      if (detail) out.push(`  ${detail}`);
      if (item.excerpt) out.push(`  “${item.excerpt}”`);
    }
    out.push(`  Stop mails about ${TRIAGE_MAIL_KIND_LABELS[section.kind].toLowerCase()}: ${section.unsubscribeUrl}`, '');
  }
  out.push(`Open my queue: ${p.queueUrl}`, '', `Stop these mails: ${p.unsubscribeAllUrl}`);
  return out.join('\n');
}
