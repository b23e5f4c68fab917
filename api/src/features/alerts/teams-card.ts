import { ADAPTIVE_CARD_VERSION, ALERT_ITEMS_SHOWN } from '@radar/contracts';
import { alertTitle, changeLine, cut, relevanceLine, SOURCE_BADGE, type AlertMessage } from './alert-message.js';

type Json = Record<string, unknown>;

/** Markdown that Teams renders in TextBlocks: escape what would turn a feed title into a link or emphasis. */
const md = (text: string) => text.replace(/([\\`*_[\]~])/g, '\\$1');

function itemBlock(item: AlertMessage['sections'][number]['items'][number]): Json {
  const relevance = relevanceLine(item);
  return {
    type: 'Container',
    separator: true,
    spacing: 'Small',
    selectAction: { type: 'Action.OpenUrl', url: item.url, title: 'Open item' },
    items: [
      {
        type: 'ColumnSet',
        columns: [
          {
            type: 'Column',
            width: 'auto',
            items: [
              {
                type: 'TextBlock',
                text: SOURCE_BADGE[item.source],
                size: 'Small',
                weight: 'Bolder',
                color: item.source === 'roadmap' ? 'Accent' : 'Good',
                wrap: false,
              },
            ],
          },
          {
            type: 'Column',
            width: 'stretch',
            items: [{ type: 'TextBlock', text: `[${md(cut(item.title, 200))}](${item.url})`, weight: 'Bolder', wrap: true }],
          },
        ],
      },
      { type: 'TextBlock', text: md(cut(changeLine(item), 400)), isSubtle: true, size: 'Small', wrap: true, spacing: 'None' },
      ...(relevance ? [{ type: 'TextBlock', text: md(cut(relevance, 300)), size: 'Small', color: 'Accent', wrap: true, spacing: 'None' }] : []),
    ],
  };
}

/**
 * The message a Teams Workflows webhook ("When a Teams webhook request is received" → post card) takes: a message
 * with one Adaptive Card attachment. Per saved search: its name, up to 10 items (source badge, linked title, what
 * changed) and "N more" linking to the saved search's view; elements of schema 1.4 only (Teams desktop, web and
 * mobile render them).
 */
export function buildTeamsMessage(m: AlertMessage): Json {
  const body: Json[] = [{ type: 'TextBlock', text: md(alertTitle(m)), size: 'Large', weight: 'Bolder', wrap: true }];
  for (const section of m.sections) {
    body.push({
      type: 'TextBlock',
      text: `[${md(section.savedSearch.name)}](${section.viewUrl})${section.savedSearch.scope === 'organisation' ? ' · Organisation' : ''}`,
      size: 'Medium',
      weight: 'Bolder',
      wrap: true,
      spacing: 'Large',
    });
    for (const item of section.items.slice(0, ALERT_ITEMS_SHOWN)) body.push(itemBlock(item));
    const more = section.total - Math.min(section.items.length, ALERT_ITEMS_SHOWN);
    if (more > 0) body.push({ type: 'TextBlock', text: `[${more} more in M365 Radar](${section.viewUrl})`, wrap: true, spacing: 'Small' });
  }
  const actions: Json[] = [];
  if (m.sections.length === 1 && m.sections[0]) actions.push({ type: 'Action.OpenUrl', title: 'Open in M365 Radar', url: m.sections[0].viewUrl });
  actions.push({ type: 'Action.OpenUrl', title: 'Manage alerts', url: m.settingsUrl });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: ADAPTIVE_CARD_VERSION,
          msteams: { width: 'Full' },
          body,
          actions,
        },
      },
    ],
  };
}
