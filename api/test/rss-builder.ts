/**
 * Writes a roadmap v1 JSON snapshot as Microsoft's RSS feed writes the same moment (checked against
 * ../shared/fixtures/m365/roadmap-rss-2026-01-31.xml): a BOM, everything on one line, categories in the order status,
 * release phases, cloud instances, products, platforms; the description entity-escaped with "<br>More info:",
 * "<br>GA date:" and "<br>Preview date:" lines; pubDate in RFC-822 with a literal Z; characters XML cannot hold
 * (the \u000b soft breaks) dropped. So the replay server can serve a small RSS twin of each small JSON fixture.
 */

interface V1Item {
  id: number | string;
  title: string;
  description?: string | null;
  moreInfoLink?: string | null;
  publicDisclosureAvailabilityDate?: string | null;
  publicPreviewDate?: string | null;
  created: string;
  modified?: string | null;
  status?: string | null;
  tagsContainer?: Record<'products' | 'cloudInstances' | 'releasePhase' | 'platforms', { tagName: string }[] | undefined>;
}

const escape = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex -- XML 1.0 cannot hold these control characters: dropping them is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function rfc822Z(noZone: string): string {
  const d = new Date(`${noZone.replace(/Z$/, '')}Z`);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} Z`;
}

export function rssFromRoadmapJson(json: string): string {
  const items = JSON.parse(json.replace(/^\ufeff/, '')) as V1Item[];
  const names = (list: { tagName: string }[] | undefined) => (list ?? []).map((t) => t.tagName);
  const body = items
    .map((item) => {
      const c = item.tagsContainer;
      const categories = [
        ...(item.status ? [item.status] : []),
        ...names(c?.releasePhase),
        ...names(c?.cloudInstances),
        ...names(c?.products),
        ...names(c?.platforms),
      ];
      let description = item.description ?? '';
      if (item.moreInfoLink) description += `<br>More info: ${item.moreInfoLink}`;
      if (item.publicDisclosureAvailabilityDate) description += `<br>GA date: ${item.publicDisclosureAvailabilityDate}`;
      if (item.publicPreviewDate) description += `<br>Preview date: ${item.publicPreviewDate}`;
      return [
        '<item>',
        `<guid isPermaLink="false">${item.id}</guid>`,
        `<link>https://www.microsoft.com/microsoft-365/roadmap?id=${item.id}</link>`,
        ...categories.map((cat) => `<category>${escape(cat)}</category>`),
        `<title>${escape(item.title)}</title>`,
        `<description>${escape(description)}</description>`,
        `<pubDate>${rfc822Z(item.created)}</pubDate>`,
        `<a10:updated>${(item.modified ?? item.created).replace(/Z?$/, 'Z')}</a10:updated>`,
        '</item>',
      ].join('');
    })
    .join('');
  return (
    '\ufeff<?xml version="1.0" encoding="utf-8"?><rss xmlns:a10="http://www.w3.org/2005/Atom" version="2.0"><channel>' +
    '<title>Microsoft 365 Roadmap - Get the Latest Updates</title><link>https://www.microsoft.com/releasecommunications/api/v2/M365/rss</link>' +
    `<description>Microsoft 365 Roadmap</description><lastBuildDate>Fri, 30 Jan 2026 23:15:49 Z</lastBuildDate><ttl>1440</ttl>${body}</channel></rss>`
  );
}
