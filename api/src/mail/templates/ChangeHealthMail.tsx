import { Link, Section, Text } from './components.js';
import { Layout, mailColors, Paragraph } from './Layout.js';

export interface ChangeHealthMailProps {
  publicUrl: string;
  /** The weekly report (Mondays) or the monthly one (the 1st). */
  period: 'week' | 'month';
  /** "week of 2026-11-30", "November 2026". */
  periodLabel: string;
  /** The change-health score now (0–100), what costs its points, and its value on the counted days of the period. */
  score: number;
  costs: { label: string; records: number; points: number }[];
  trend: { date: string; score: number }[];
  open: number;
  overdue: number;
  /** Records done by someone in the period (the last 7 days, or the month). */
  done: number;
  openByOwner: { owner: string; open: number; overdue: number }[];
  nearest: { title: string; providerId: string; url: string; owner: string | null; dueDate: string; tenantName: string | null }[];
  /** Stops this report for the admin (absent for an address without an account). */
  unsubscribeUrl?: string;
}

const doneIn = (p: Pick<ChangeHealthMailProps, 'period'>) => (p.period === 'week' ? 'this week' : 'this month');

export const changeHealthSubject = (p: Pick<ChangeHealthMailProps, 'score' | 'open' | 'overdue' | 'done' | 'period'>) =>
  `Change health ${p.score}/100: ${p.open} open, ${p.overdue} overdue, ${p.done} done ${doneIn(p)}`;

/** The trend in words: the first and the last counted day of the period, and the lowest. */
function trendText(trend: ChangeHealthMailProps['trend']): string | null {
  const first = trend[0];
  const last = trend.at(-1);
  if (!first || !last || trend.length < 2) return null;
  const low = trend.reduce((a, b) => (b.score < a.score ? b : a));
  return `From ${first.score} on ${first.date} to ${last.score} on ${last.date}; lowest ${low.score} on ${low.date}.`;
}

const cell = { padding: '4px 8px 4px 0', fontSize: '14px', color: mailColors.text } as const;

/**
 * The admins' change-health report, weekly and monthly: the score and what costs its points, its trend, open work by
 * owner (what is overdue and with whom), what got done, what is due next.
 */
export function ChangeHealthMail(p: ChangeHealthMailProps) {
  const trend = trendText(p.trend);
  return (
    <Layout
      preview={changeHealthSubject(p)}
      heading={`Change health · ${p.periodLabel}`}
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
      <Text style={{ fontSize: '28px', fontWeight: 700, margin: '8px 0 4px' }}>{p.score} / 100</Text>
      <Paragraph>
        {p.open} open items, {p.overdue} overdue; {p.done} done {doneIn(p)}.
      </Paragraph>
      {p.costs.length > 0 ? (
        <table cellPadding={0} cellSpacing={0} role="presentation">
          <tbody>
            {p.costs.map((c) => (
              <tr key={c.label}>
                <td style={cell}>{c.label}</td>
                <td style={{ ...cell, textAlign: 'right' }}>{c.records} items</td>
                <td style={{ ...cell, textAlign: 'right', color: '#b42318' }}>−{c.points} points</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <Paragraph>Nothing costs points: every open item is owned, triaged and on time.</Paragraph>
      )}
      {trend ? <Paragraph>{trend}</Paragraph> : null}
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
  const trend = trendText(p.trend);
  return [
    `Change health · ${p.periodLabel}`,
    '',
    `${p.score} / 100`,
    `${p.open} open items, ${p.overdue} overdue; ${p.done} done ${doneIn(p)}.`,
    ...(p.costs.length
      ? p.costs.map((c) => `- ${c.label}: ${c.records} items, −${c.points} points`)
      : ['Nothing costs points: every open item is owned, triaged and on time.']),
    ...(trend ? ['', trend] : []),
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
