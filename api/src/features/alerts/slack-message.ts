import type { Block, KnownBlock } from '@slack/types';
import { ALERT_ITEMS_SHOWN } from '@radar/contracts';
import { alertTitle, changeLine, cut, relevanceLine, SOURCE_BADGE, type AlertMessage } from './alert-message.js';

/** Slack's mrkdwn escapes: only &, < and > (and `|` would end a link's text). */
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const linkText = (text: string) => esc(text).replace(/\|/g, '¦');
const link = (url: string, text: string) => `<${url}|${linkText(text)}>`;

/**
 * An incoming-webhook message in Block Kit with the Teams card's content: a header, per saved search its linked
 * name, up to 10 items (source, linked title, what changed) and "N more", and a "Manage alerts" footer. `text` is
 * the notification fallback. Within Slack's limits: at most 50 blocks (3 searches per message), header text 150
 * characters, section text 3,000.
 */
export function buildSlackMessage(m: AlertMessage): { text: string; blocks: (KnownBlock | Block)[] } {
  const title = alertTitle(m);
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: cut(title, 150), emoji: false } }];
  m.sections.forEach((section, index) => {
    if (index > 0) blocks.push({ type: 'divider' });
    const scope = section.savedSearch.scope === 'organisation' ? ' · Organisation' : '';
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(`*${link(section.viewUrl, section.savedSearch.name)}*${scope}`, 3000) } });
    for (const item of section.items.slice(0, ALERT_ITEMS_SHOWN)) {
      const relevance = relevanceLine(item);
      const text = `*${link(item.url, cut(item.title, 300))}*\n\`${SOURCE_BADGE[item.source]}\` ${esc(changeLine(item))}${relevance ? `\n_${esc(cut(relevance, 300))}_` : ''}`;
      blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(text, 3000) } });
    }
    const more = section.total - Math.min(section.items.length, ALERT_ITEMS_SHOWN);
    if (more > 0) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: link(section.viewUrl, `${more} more in M365 Radar`) }] });
  });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `M365 Radar · ${link(m.settingsUrl, 'Manage alerts')}` }] });
  return { text: title, blocks };
}
