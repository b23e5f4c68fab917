import { describe, expect, it } from '@jest/globals';
import { readFixture } from '../../test/replay-server.js';
import { rssFromRoadmapJson } from '../../test/rss-builder.js';
import { FeedFormatError } from './errors.js';
import { parseJsonText, roadmapRecordsFromPayload } from './normalize.js';
import { parseRssDate, roadmapRecordsFromRss, splitRssDescription } from './roadmap-rss.js';
import { classifyCategories, roadmapVocabulary } from './roadmap-vocabulary.js';

const ITEM = (inner: string) =>
  `\ufeff<?xml version="1.0" encoding="utf-8"?><rss xmlns:a10="http://www.w3.org/2005/Atom" version="2.0"><channel><title>Microsoft 365 Roadmap</title><ttl>1440</ttl>${inner}</channel></rss>`;

/** The recorded RSS feed's first item, verbatim. */
const EXAMPLE = ITEM(
  '<item><guid isPermaLink="false">526793</guid><link>https://www.microsoft.com/microsoft-365/roadmap?id=526793</link><category>In development</category><category>General Availability</category><category>Targeted Release</category><category>Worldwide (Standard Multi-Tenant)</category><category>Microsoft 365 admin center</category><category>Microsoft Copilot (Microsoft 365)</category><category>Web</category><title>Microsoft 365 admin center: Copilot settings – readiness</title><description>Copilot readiness in the Microsoft 365 admin center provides a centralized experience for applying Microsoft’s recommended settings, policies, and actions for Copilot. It organizes these into predefined packages so admins can quickly deploy Copilot securely and confidently.&lt;br&gt;GA date: March CY2026&lt;br&gt;Preview date: February CY2026</description><pubDate>Thu, 20 Nov 2025 00:00:17 Z</pubDate><a10:updated>2026-01-30T23:15:49Z</a10:updated></item>',
);

describe('roadmap RSS → records', () => {
  it('maps the recorded example item: BOM, categories by kind, dates with a literal Z, GA and preview dates', () => {
    const [r] = roadmapRecordsFromRss(EXAMPLE);
    expect(r).toMatchObject({
      itemId: 526793,
      title: 'Microsoft 365 admin center: Copilot settings – readiness',
      status: 'In development',
      releasePhase: ['General Availability', 'Targeted Release'],
      cloudInstances: ['Worldwide (Standard Multi-Tenant)'],
      products: ['Microsoft 365 admin center', 'Microsoft Copilot (Microsoft 365)'],
      platforms: ['Web'],
      releaseDate: 'March CY2026',
      previewDate: 'February CY2026',
      moreInfoLink: null,
      lossy: { absent: ['moreInfoLink'], spacing: true },
    });
    expect(r!.description.endsWith('securely and confidently.')).toBe(true);
    expect(r!.createdDate.toISOString()).toBe('2025-11-20T00:00:17.000Z');
    expect(r!.modifiedDate.toISOString()).toBe('2026-01-30T23:15:49.000Z');
    // `tags` rebuilt in the v1 order: clouds, platforms, products, phases.
    expect(r!.tags).toEqual([
      'Worldwide (Standard Multi-Tenant)',
      'Web',
      'Microsoft 365 admin center',
      'Microsoft Copilot (Microsoft 365)',
      'General Availability',
      'Targeted Release',
    ]);
  });

  it('splits the "More info", "GA date" and "Preview date" lines off the description, keeping escaped HTML', () => {
    expect(splitRssDescription('<div>Text &quot;x&quot;</div> <br>More info: https://aka.ms/x<br>GA date: July CY2025')).toEqual({
      text: '<div>Text &quot;x&quot;</div> ',
      moreInfo: 'https://aka.ms/x',
      gaDate: 'July CY2025',
      previewDate: null,
    });
    expect(parseRssDate('Fri, 30 Jan 2026 23:15:49 Z')).toBe('2026-01-30T23:15:49.000Z');
    expect(parseRssDate('not a date')).toBeNull();
  });

  it('classifies categories by their fixed order; unknown products are products, a new "Targeted Release (…)" a phase', () => {
    const v = roadmapVocabulary();
    expect(classifyCategories(['Launched', 'Targeted Release (Pilot)', 'GCC', 'Brand New Product', 'Teams', 'Android', 'iOS'], v)).toEqual({
      status: 'Launched',
      releasePhase: ['Targeted Release (Pilot)'],
      cloudInstances: ['GCC'],
      products: ['Brand New Product', 'Teams'],
      platforms: ['Android', 'iOS'],
    });
    // A platform value only the database knows (the JSON feed carried it) is a platform once it is in the vocabulary.
    expect(classifyCategories(['Launched', 'Preview', 'DoD', 'Word', 'HoloLens'], roadmapVocabulary({ platforms: ['HoloLens'] })).platforms).toEqual([
      'HoloLens',
    ]);
  });

  it('maps the small fixtures to the same records as their JSON, except what XML cannot hold', () => {
    for (const file of ['roadmap-a.json', 'roadmap-b.json']) {
      const json = roadmapRecordsFromPayload(parseJsonText(readFixture(file), file));
      const rss = new Map(roadmapRecordsFromRss(rssFromRoadmapJson(readFixture(file))).map((r) => [r.itemId, r]));
      for (const j of json) {
        const r = rss.get(j.itemId)!;
        const { raw: _a, lossy: _b, ...fromRss } = r;
        const { raw: _c, ...fromJson } = j;
        // \u000b (Word soft breaks) cannot travel in XML: those two texts differ only in their spacing.
        if (j.itemId === 500004 || j.itemId === 500012) {
          expect(fromRss.description.replace(/\s/g, '')).toBe(fromJson.description.replace(/\s/g, ''));
          expect(fromRss.title.replace(/\s/g, '')).toBe(fromJson.title.replace(/\s/g, ''));
          continue;
        }
        expect(fromRss).toEqual(fromJson);
      }
    }
  });

  it('refuses a truncated document, an HTML page and an item without a numeric guid, as a whole', () => {
    const full = rssFromRoadmapJson(readFixture('roadmap-a.json'));
    expect(() => roadmapRecordsFromRss(full.slice(0, full.length / 2))).toThrow(/not well-formed XML/);
    expect(() => roadmapRecordsFromRss('<!DOCTYPE html><html><body><h1>Access Denied</h1></body></html>')).toThrow(FeedFormatError);
    expect(() => roadmapRecordsFromRss('<html><body><h1>Access Denied</h1></body></html>')).toThrow(/not an RSS channel/);
    expect(() => roadmapRecordsFromRss(ITEM('<item><guid>abc</guid><title>x</title><pubDate>Fri, 30 Jan 2026 23:15:49 Z</pubDate></item>'))).toThrow(/guid/);
    expect(() => roadmapRecordsFromRss(ITEM('<item><guid>1</guid><title>x</title><pubDate>yesterday</pubDate></item>'))).toThrow(/pubDate/);
  });

  it('reads an empty channel as an empty snapshot (the sync guard then holds it)', () => {
    expect(roadmapRecordsFromRss(ITEM(''))).toEqual([]);
  });
});
