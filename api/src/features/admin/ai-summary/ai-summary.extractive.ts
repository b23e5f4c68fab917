import { formatCount } from '@radar/contracts';
import { countsOf, needsAttention, shorten, type NormalizedReport, type ReportItem } from './ai-summary.report.js';

/** Shown at the top of every server-built summary so nobody mistakes it for an AI briefing. */
export const EXTRACTIVE_LABEL = 'Extractive summary (no AI service configured)';

const MAX_GROUPS = 25;
const MAX_ITEMS_PER_GROUP = 15;
const MAX_ATTENTION = 20;
const MAX_TEXT_LINES = 20;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const CHANGE_LABEL: Record<ReportItem['change'], string> = { new: 'New', updated: 'Updated', listed: 'Listed' };
const SOURCE_LABEL: Record<ReportItem['source'], string> = { roadmap: 'Roadmap', messages: 'Message Center' };
const CHANGE_ORDER: Record<ReportItem['change'], number> = { new: 0, updated: 1, listed: 2 };

function dateText(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString().slice(0, 10);
}

function itemLine(item: ReportItem, withProduct = false): string {
  const facts = [
    `${CHANGE_LABEL[item.change]} ${SOURCE_LABEL[item.source]}`,
    item.id ? escapeHtml(item.id) : null,
    withProduct && item.products.length ? escapeHtml(item.products.join(', ')) : null,
    item.status ? escapeHtml(item.status) : null,
    item.isMajorChange ? '<strong>Major change</strong>' : null,
    item.actionRequiredBy ? `<strong>Action required by ${escapeHtml(dateText(item.actionRequiredBy))}</strong>` : null,
  ].filter(Boolean);
  const summary = item.summary ? ` ${escapeHtml(shorten(item.summary, 160))}` : '';
  return `<li><a href="${escapeHtml(item.link)}">${escapeHtml(item.title)}</a> (${facts.join(' · ')})${summary}</li>`;
}

function overview(report: Extract<NormalizedReport, { kind: 'report' }>): string {
  const c = countsOf(report.items);
  const parts = [
    c.roadmapNew || c.roadmapUpdated ? `${c.roadmapNew} new and ${c.roadmapUpdated} updated roadmap items` : null,
    c.roadmapListed ? formatCount(c.roadmapListed, 'roadmap item') : null,
    c.messagesNew || c.messagesUpdated ? `${c.messagesNew} new and ${c.messagesUpdated} updated Message Center posts` : null,
    c.messagesListed ? formatCount(c.messagesListed, 'Message Center post') : null,
  ].filter(Boolean);
  const scope = [
    report.timeframe ? `covering ${escapeHtml(report.timeframe)}` : null,
    report.generatedAt ? `generated ${escapeHtml(dateText(report.generatedAt))}` : null,
  ].filter(Boolean);
  const head = `This report${scope.length ? ` (${scope.join(', ')})` : ''} lists ${parts.length ? parts.join(', ') : 'no items'}.`;
  return `<p>${head}${c.attention ? ` ${formatCount(c.attention, 'item needs', 'items need')} attention.` : ''}</p>`;
}

function byPriority(a: ReportItem, b: ReportItem): number {
  return Number(needsAttention(b)) - Number(needsAttention(a)) || CHANGE_ORDER[a.change] - CHANGE_ORDER[b.change] || a.title.localeCompare(b.title);
}

/**
 * The summary the server writes without an AI service: overview counts, then major changes and action-required
 * posts, then the items grouped by their first product or service (largest groups first), each linked.
 */
export function extractiveSummary(report: NormalizedReport): string {
  const label = `<p><strong>${EXTRACTIVE_LABEL}</strong></p>`;
  if (report.kind === 'text') {
    const lines = report.text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const important = (l: string) => /\b(MC\d+|action required|major|retire|deprecat)/i.test(l);
    const ordered = [...lines.filter(important), ...lines.filter((l) => !important(l))].slice(0, MAX_TEXT_LINES);
    if (ordered.length === 0) return `${label}<p>The uploaded text is empty.</p>`;
    const more = lines.length > ordered.length ? `<p>…and ${formatCount(lines.length - ordered.length, 'more line')}.</p>` : '';
    return `${label}<p>Key lines from the uploaded text (${formatCount(lines.length, 'line')}):</p><ul>${ordered
      .map((l) => `<li>${escapeHtml(shorten(l, 300))}</li>`)
      .join('')}</ul>${more}`;
  }
  if (report.items.length === 0) {
    return `${label}${overview(report)}<p>No new or updated Microsoft 365 items in this report.</p>`;
  }
  const html = [label, overview(report)];
  const attention = report.items.filter(needsAttention).sort(byPriority);
  if (attention.length) {
    html.push('<h3>Major changes and action required</h3><ul>');
    html.push(...attention.slice(0, MAX_ATTENTION).map((i) => itemLine(i, true)));
    html.push('</ul>');
    if (attention.length > MAX_ATTENTION) html.push(`<p>…and ${attention.length - MAX_ATTENTION} more.</p>`);
  }
  const groups = new Map<string, ReportItem[]>();
  for (const item of report.items) {
    const key = item.products[0] ?? 'Other';
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const sorted = [...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  for (const [product, items] of sorted.slice(0, MAX_GROUPS)) {
    html.push(`<h3>${escapeHtml(product)} (${items.length})</h3><ul>`);
    html.push(
      ...items
        .sort(byPriority)
        .slice(0, MAX_ITEMS_PER_GROUP)
        .map((i) => itemLine(i)),
    );
    html.push('</ul>');
    if (items.length > MAX_ITEMS_PER_GROUP) html.push(`<p>…and ${items.length - MAX_ITEMS_PER_GROUP} more.</p>`);
  }
  if (sorted.length > MAX_GROUPS) {
    const rest = sorted.slice(MAX_GROUPS).reduce((n, [, items]) => n + items.length, 0);
    html.push(`<p>…and ${formatCount(rest, 'item')} in ${formatCount(sorted.length - MAX_GROUPS, 'other product')}.</p>`);
  }
  return html.join('');
}
