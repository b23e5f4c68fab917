import { Link, Section, Text } from './components.js';
import { Layout, mailColors, Paragraph } from './Layout.js';

export interface ChangeHealthMailProps {
  publicUrl: string;
  /** "Week of 30 Nov 2026". */
  weekLabel: string;
  open: number;
  overdue: number;
  doneThisWeek: number;
  openByOwner: { owner: string; open: number; overdue: number }[];
  nearest: { title: string; providerId: string; url: string; owner: string | null; dueDate: string; tenantName: string | null }[];
  /** Stops this report for the admin (absent for an address without an account). */
  unsubscribeUrl?: string;
}

export const changeHealthSubject = (p: Pick<ChangeHealthMailProps, 'open' | 'overdue' | 'doneThisWeek'>) =>
  `Change health: ${p.open} open, ${p.overdue} overdue, ${p.doneThisWeek} done this week`;

const cell = { padding: '4px 8px 4px 0', fontSize: '14px', color: mailColors.text } as const;

/** The admins' weekly change-health report: open work by owner, what is overdue, what got done, what is due next. */
export function ChangeHealthMail(p: ChangeHealthMailProps) {
  return (
    <Layout
      preview={changeHealthSubject(p)}
      heading={`Change health · ${p.weekLabel}`}
      publicUrl={p.publicUrl}
      unsubscribe={
        p.unsubscribeUrl ? (
          <>
            You get this report as an admin of M365 Radar.{' '}
            <Link href={p.unsubscribeUrl} style={{ color: mailColors.muted, textDecoration: 'underline' }}>
              Stop this report
            </Link>
          </>
        ) : undefined
      }
    >
      <Paragraph>
        {p.open} open items, {p.overdue} overdue; {p.doneThisWeek} done in the last 7 days.
      </Paragraph>
      <Text style={{ fontSize: '17px', fontWeight: 700, margin: '16px 0 6px' }}>Open by owner</Text>
      <table cellPadding={0} cellSpacing={0} role="presentation">
        <tbody>
          {p.openByOwner.map((r) => (
            <tr key={r.owner}>
              <td style={cell}>{r.owner}</td>
              <td style={{ ...cell, textAlign: 'right' }}>{r.open} open</td>
              <td style={{ ...cell, textAlign: 'right', color: r.overdue ? '#b42318' : mailColors.muted }}>{r.overdue} overdue</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Text style={{ fontSize: '17px', fontWeight: 700, margin: '16px 0 6px' }}>The 10 nearest due dates</Text>
      {p.nearest.length === 0 ? <Paragraph>Nothing open has a due date ahead.</Paragraph> : null}
      {p.nearest.map((n) => (
        <Section key={`${n.providerId}:${n.tenantName ?? ''}`} style={{ borderTop: `1px solid ${mailColors.border}`, padding: '6px 0 2px' }}>
          <Text style={{ margin: 0, fontSize: '14px' }}>
            <strong>{n.dueDate}</strong>{' '}
            <Link href={n.url} style={{ color: mailColors.accent }}>
              {n.title}
            </Link>{' '}
            <span style={{ color: mailColors.muted, fontFamily: 'monospace' }}>{n.providerId}</span>
          </Text>
          <Text style={{ margin: '2px 0 0', fontSize: '13px', color: mailColors.muted }}>
            {[n.owner ?? 'Unassigned', n.tenantName ? `Tenant: ${n.tenantName}` : null].filter(Boolean).join(' · ')}
          </Text>
        </Section>
      ))}
      <Paragraph>
        <Link href={`${p.publicUrl}/dashboard?triage=overdue`} style={{ color: mailColors.accent }}>
          See what is overdue
        </Link>
      </Paragraph>
    </Layout>
  );
}

export function changeHealthText(p: ChangeHealthMailProps): string {
  return [
    `Change health · ${p.weekLabel}`,
    '',
    `${p.open} open items, ${p.overdue} overdue; ${p.doneThisWeek} done in the last 7 days.`,
    '',
    'OPEN BY OWNER',
    ...p.openByOwner.map((r) => `- ${r.owner}: ${r.open} open, ${r.overdue} overdue`),
    '',
    'THE 10 NEAREST DUE DATES',
    ...(p.nearest.length
      ? p.nearest.map((n) => `- ${n.dueDate} ${n.title} (${n.providerId}) · ${n.owner ?? 'Unassigned'}${n.tenantName ? ` · ${n.tenantName}` : ''}\n  ${n.url}`)
      : ['Nothing open has a due date ahead.']),
    '',
    `See what is overdue: ${p.publicUrl}/dashboard?triage=overdue`,
    ...(p.unsubscribeUrl ? ['', `Stop this report: ${p.unsubscribeUrl}`] : []),
  ].join('\n');
}
