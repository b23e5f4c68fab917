import { Button, Link, Section, Text } from './components.js';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';
import { formatCount } from '@radar/contracts';

/** Colours of the call-outs; explicit so dark-mode clients keep the contrast. */
const callout = {
  statusBackground: '#fff4ce',
  statusBorder: '#c19c00',
  statusText: '#3b2f00',
  removedBackground: '#fde7e9',
  removedBorder: '#c50f1f',
  removedText: '#4a0a10',
  restoredBackground: '#dff6dd',
  restoredBorder: '#107c10',
  restoredText: '#0b3d0b',
} as const;

export interface ItemChangeField {
  label: string;
  from: string;
  to: string;
}

export interface ItemDateSlip {
  /** GA and preview dates of roadmap items; the rollout timing of Message Center posts. */
  label: 'GA date' | 'Preview date' | 'Rollout';
  from: string;
  to: string;
  shift: string | null;
}

const dateSlipText = (d: ItemDateSlip) => `${d.label} moved: ${d.from} → ${d.to}${d.shift ? ` (${d.shift})` : ''}`;

export interface ItemChangeMailItem {
  sourceLabel: string;
  /** "Roadmap ID 500002" or "MC900001". */
  idLabel: string;
  title: string;
  /** The item on the dashboard (share link). */
  url: string;
  kind: 'changed' | 'removed' | 'restored';
  statusChange: { from: string; to: string } | null;
  /** Roadmap GA / preview date moves and post rollout moves, called out like a status change ("+1 month"; null shift when unknown). */
  dateSlips?: ItemDateSlip[];
  /** Every other changed field, old → new (the same diff the change history shows). */
  fields: ItemChangeField[];
  /** A Message Center post's rollout schedule and action sections as they read now (plain text). */
  sections?: { title: string; text: string }[];
  /** Stops this one item subscription. */
  unsubscribeUrl: string;
}

export interface ItemChangeMailProps {
  publicUrl: string;
  firstName?: string | null;
  items: ItemChangeMailItem[];
  /** Stops every subscription this mail is about (also the List-Unsubscribe target). */
  unsubscribeAllUrl: string;
  /** /notifications, where all subscriptions are managed. */
  settingsUrl: string;
}

const SLIP_SUBJECT = { 'GA date': 'Release date', 'Preview date': 'Preview date', Rollout: 'Rollout' } as const;

export function itemChangeSubject(items: ItemChangeMailItem[]): string {
  const [item] = items;
  if (items.length === 1 && item) {
    if (item.kind === 'removed') return `Removed: ${item.title}`;
    if (item.statusChange) return `Status change: ${item.title} is now ${item.statusChange.to}`;
    const slip = item.dateSlips?.[0];
    if (slip) return `${SLIP_SUBJECT[slip.label]} moved: ${item.title} is now ${slip.to}`;
    return `Updated: ${item.title}`;
  }
  const statusCount = items.filter((i) => i.statusChange || i.kind !== 'changed').length;
  const slipCount = items.filter((i) => i.dateSlips?.length).length;
  const notes = [
    ...(statusCount ? [`${statusCount} status ${statusCount === 1 ? 'change' : 'changes'}`] : []),
    ...(slipCount ? [`${slipCount} date ${slipCount === 1 ? 'move' : 'moves'}`] : []),
  ];
  return `${formatCount(items.length, 'item')} you follow changed${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

function kindText(item: ItemChangeMailItem): string | null {
  if (item.kind === 'removed') return `This item was removed from the ${item.sourceLabel === 'Roadmap' ? 'roadmap' : 'Message Center'} feed.`;
  if (item.kind === 'restored') return 'This item is back in the feed after it had been removed.';
  return null;
}

function ItemBlock({ item }: { item: ItemChangeMailItem }) {
  const notice = kindText(item);
  const tone =
    item.kind === 'removed'
      ? { bg: callout.removedBackground, border: callout.removedBorder, text: callout.removedText }
      : item.kind === 'restored'
        ? { bg: callout.restoredBackground, border: callout.restoredBorder, text: callout.restoredText }
        : null;
  return (
    <Section style={{ borderTop: `1px solid ${mailColors.border}`, padding: '16px 0 4px' }}>
      <Text style={{ fontSize: '12px', color: mailColors.muted, margin: '0 0 4px', textTransform: 'uppercase', letterSpacing: '0.5px' }}>
        {`${item.sourceLabel} · ${item.idLabel}`}
      </Text>
      <Text style={{ fontSize: '16px', fontWeight: 600, color: mailColors.text, margin: '0 0 10px' }}>
        <Link href={item.url} style={{ color: mailColors.accent, textDecoration: 'underline' }}>
          {item.title}
        </Link>
      </Text>
      {notice && tone ? (
        <Section style={{ backgroundColor: tone.bg, borderLeft: `4px solid ${tone.border}`, padding: '8px 12px', margin: '0 0 10px' }}>
          <Text style={{ fontSize: '14px', fontWeight: 600, color: tone.text, margin: 0 }}>{notice}</Text>
        </Section>
      ) : null}
      {item.statusChange ? (
        <Section
          style={{ backgroundColor: callout.statusBackground, borderLeft: `4px solid ${callout.statusBorder}`, padding: '8px 12px', margin: '0 0 10px' }}
        >
          <Text style={{ fontSize: '14px', fontWeight: 700, color: callout.statusText, margin: 0 }}>
            {`Status changed: ${item.statusChange.from} → ${item.statusChange.to}`}
          </Text>
        </Section>
      ) : null}
      {(item.dateSlips ?? []).map((d) => (
        <Section
          key={d.label}
          style={{ backgroundColor: callout.statusBackground, borderLeft: `4px solid ${callout.statusBorder}`, padding: '8px 12px', margin: '0 0 10px' }}
        >
          <Text style={{ fontSize: '14px', fontWeight: 700, color: callout.statusText, margin: 0 }}>{dateSlipText(d)}</Text>
        </Section>
      ))}
      {(item.sections ?? []).map((s) => (
        <Text key={s.title} style={{ fontSize: '14px', lineHeight: '20px', color: mailColors.text, margin: '0 0 8px' }}>
          <strong>{s.title}</strong>
          <br />
          {s.text}
        </Text>
      ))}
      {item.fields.map((f) => (
        <Text key={f.label} style={{ fontSize: '14px', lineHeight: '20px', color: mailColors.text, margin: '0 0 8px' }}>
          <strong>{f.label}</strong>
          <br />
          <span style={{ color: mailColors.muted, textDecoration: 'line-through' }}>{f.from}</span>
          {' → '}
          <span style={{ color: mailColors.text }}>{f.to}</span>
        </Text>
      ))}
      <Text style={{ fontSize: '13px', color: mailColors.muted, margin: '4px 0 8px' }}>
        <Link href={item.url} style={{ color: mailColors.accent }}>
          Open in {PRODUCT_NAME}
        </Link>
        {' · '}
        <Link href={item.unsubscribeUrl} style={{ color: mailColors.muted }}>
          Stop notifications for this item
        </Link>
      </Text>
    </Section>
  );
}

/** One mail per subscriber per sync: every followed item that changed, with its diff. */
export function ItemChangeMail({ publicUrl, firstName, items, unsubscribeAllUrl, settingsUrl }: ItemChangeMailProps) {
  const heading = items.length === 1 ? 'An item you follow changed' : `${items.length} items you follow changed`;
  return (
    <Layout
      preview={itemChangeSubject(items)}
      heading={heading}
      publicUrl={publicUrl}
      unsubscribe={
        <Text style={{ fontSize: '12px', color: mailColors.muted, margin: 0 }}>
          {`You get this mail because you subscribed to ${items.length === 1 ? 'this item' : 'these items'} in ${PRODUCT_NAME}. `}
          <Link href={unsubscribeAllUrl} style={{ color: mailColors.muted, textDecoration: 'underline' }}>
            Unsubscribe from {items.length === 1 ? 'this item' : 'these items'}
          </Link>
          {' · '}
          <Link href={settingsUrl} style={{ color: mailColors.muted, textDecoration: 'underline' }}>
            Notification settings
          </Link>
        </Text>
      }
    >
      <Paragraph>{`${firstName ? `Hi ${firstName}, the` : 'The'} latest sync found changes to ${items.length === 1 ? 'an item' : 'items'} you follow.`}</Paragraph>
      {items.map((item) => (
        <ItemBlock key={item.url} item={item} />
      ))}
      <Button
        href={settingsUrl}
        style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '14px', marginTop: '8px' }}
      >
        Manage notifications
      </Button>
      <Note>Changes are checked after every sync of the roadmap and Message Center.</Note>
    </Layout>
  );
}

/** Plain-text part, written by hand so each change reads as one line. */
export function itemChangeText({ firstName, items, unsubscribeAllUrl, settingsUrl }: ItemChangeMailProps): string {
  const lines = [
    items.length === 1 ? 'An item you follow changed' : `${items.length} items you follow changed`,
    '',
    `${firstName ? `Hi ${firstName}, the` : 'The'} latest sync found changes to ${items.length === 1 ? 'an item' : 'items'} you follow.`,
  ];
  for (const item of items) {
    lines.push('', '----', `${item.sourceLabel} · ${item.idLabel}`, item.title);
    const notice = kindText(item);
    if (notice) lines.push(`>> ${notice.toUpperCase()}`);
    if (item.statusChange) lines.push(`>> STATUS CHANGED: ${item.statusChange.from} -> ${item.statusChange.to}`);
    for (const d of item.dateSlips ?? []) lines.push(`>> ${d.label.toUpperCase()} MOVED: ${d.from} -> ${d.to}${d.shift ? ` (${d.shift})` : ''}`);
    for (const s of item.sections ?? []) lines.push(`${s.title}: ${s.text}`);
    for (const f of item.fields) lines.push(`* ${f.label}: ${f.from} -> ${f.to}`);
    lines.push(`Open: ${item.url}`, `Stop notifications for this item: ${item.unsubscribeUrl}`);
  }
  lines.push('', '----', `Unsubscribe from ${items.length === 1 ? 'this item' : 'these items'}: ${unsubscribeAllUrl}`, `Notification settings: ${settingsUrl}`);
  return lines.join('\n');
}
