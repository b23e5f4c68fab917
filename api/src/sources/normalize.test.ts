import { describe, expect, it } from '@jest/globals';
import { readFixture } from '../../test/replay-server.js';
import { FeedFormatError } from './errors.js';
import { messageRecordsFromPayload, parseJsonText, roadmapRecordsFromPayload, roadmapIdsFromBody, parseRoadmapIdList } from './normalize.js';
import { parseUtc } from './text.js';

const roadmapA = roadmapRecordsFromPayload(parseJsonText(readFixture('roadmap-a.json'), 'A'));
const roadmapB = roadmapRecordsFromPayload(parseJsonText(readFixture('roadmap-b.json'), 'B'));
const messagesA = messageRecordsFromPayload(JSON.parse(readFixture('messages-a.json')));
const rm = (id: number, list = roadmapA) => list.find((r) => r.itemId === id)!;
const mc = (id: string) => messagesA.find((m) => m.messageId === id)!;

describe('roadmap normalisation', () => {
  it('reads both serialisations (API key order, 2 spaces / sorted keys, 4 spaces) to the same records', () => {
    expect(roadmapA).toHaveLength(12);
    expect(roadmapB).toHaveLength(12);
    const unchanged = (r: (typeof roadmapA)[number]) => ({ ...r, raw: undefined });
    expect(unchanged(rm(500001, roadmapB))).toEqual(unchanged(rm(500001)));
  });

  it('trims titles, turns NBSP into a space and drops zero-width and control characters', () => {
    expect(rm(500001).title).toBe('Microsoft Teams: Live translation in chat');
    expect(rm(500002).title).toBe('Microsoft Copilot (Microsoft 365): [Copilot Extensibility][DevX] Sensitivity labels for custom connectors');
    expect(rm(500012).title).toBe('Excel: Python in Excel for Mac');
  });

  it('keeps HTML descriptions as HTML and turns vertical tabs into line breaks', () => {
    expect(rm(500003).description).toMatch(/^<div><span style="font-family:&quot;Segoe UI&quot;/);
    expect(rm(500004).description).toBe('Admins get usage reports for agents.\n\nThe reports cover the last 90 days.');
    expect(rm(500011).description).toContain('\n#newoutlookforwindows');
  });

  it('reads "" preview dates as none and keeps month strings as the feed spells them', () => {
    expect(rm(500004).previewDate).toBeNull();
    expect(rm(500001).previewDate).toBe('June CY2025');
    expect(rm(500001).releaseDate).toBe('July CY2025');
  });

  it('treats created/modified without a zone as UTC', () => {
    expect(rm(500001).createdDate.toISOString()).toBe('2025-06-16T23:15:08.000Z');
    expect(rm(500001).modifiedDate.toISOString()).toBe('2025-09-08T23:45:21.000Z');
  });

  it('takes products, cloud instances, phases and platforms from tagsContainer and folds product case variants', () => {
    expect(rm(500004).products).toEqual(['Microsoft 365 admin center', 'Microsoft Copilot (Microsoft 365)']);
    expect(rm(500004).tags).toContain('Microsoft 365 admin center');
    expect(rm(500004).tags).not.toContain('Microsoft 365 Admin Center');
    expect(rm(500008).cloudInstances).toEqual(['Worldwide (Standard Multi-Tenant)', 'GCC', 'GCC High', 'DoD']);
    expect(rm(500002).releasePhase).toEqual(['Preview', 'General Availability']);
    expect(rm(500010).platforms).toEqual([]);
    expect(rm(500002).status).toBe('In development');
    expect(rm(500008).moreInfoLink).toBe('https://learn.microsoft.com/purview/dlp-copilot');
  });

  it('refuses a payload that is not an array, an item without id, or duplicate ids', () => {
    expect(() => roadmapRecordsFromPayload({ value: [] })).toThrow(FeedFormatError);
    expect(() => roadmapRecordsFromPayload([{ title: 'x', created: '2026-01-01T00:00:00' }])).toThrow(/id/);
    const one = JSON.parse(readFixture('roadmap-a.json'))[0];
    expect(() => roadmapRecordsFromPayload([one, one])).toThrow(/twice/);
    expect(() => parseJsonText('[{"id": 1', 'feed')).toThrow(FeedFormatError);
  });

  it('accepts a BOM before the JSON', () => {
    expect(parseJsonText('\ufeff[]', 'feed')).toEqual([]);
  });
});

describe('Message Center normalisation', () => {
  it('normalises 0-3 digit fractions to ISO with milliseconds', () => {
    expect(mc('MC900001').publishedDate!.toISOString()).toBe('2025-11-03T18:00:00.000Z');
    expect(mc('MC900002').publishedDate!.toISOString()).toBe('2025-12-01T20:57:32.100Z');
    expect(mc('MC900003').publishedDate!.toISOString()).toBe('2025-11-21T16:46:46.150Z');
    expect(mc('MC900004').publishedDate!.toISOString()).toBe('2025-08-28T20:57:32.153Z');
    expect(parseUtc('2025-07-10T23:26:38.5775946Z')!.toISOString()).toBe('2025-07-10T23:26:38.577Z');
  });

  it('keeps the "(Updated) " prefix and cleans whitespace and zero-width characters in titles', () => {
    expect(mc('MC900009').title).toBe('(Updated) Exchange Online: Mailbox audit defaults change');
  });

  it('reads details: Summary, RoadmapIds, Platforms, links; FeatureStatusJson without LastUpdateTime', () => {
    const m = mc('MC900002');
    expect(m.summary).toBe('Connectors will honour sensitivity labels.');
    expect(m.roadmapIds).toEqual([500002, 500004]);
    expect(m.detailRoadmapIds).toEqual([500002, 500004]);
    expect(mc('MC900001').platforms).toEqual(['Desktop', 'Web']);
    expect(mc('MC900004').externalLinks).toEqual([
      { name: 'ExternalLink', url: 'http://aka.ms/RetireApprovedClientApp' },
      { name: 'BlogLink', url: 'https://techcommunity.microsoft.com/blog/identity/retire-approved-client-app/4466700' },
    ]);
    expect(mc('MC900009').externalLinks).toEqual([{ name: 'HelpLink', url: 'https://learn.microsoft.com/purview/audit-mailboxes' }]);
    expect(JSON.stringify(mc('MC900003').featureStatus)).not.toContain('LastUpdateTime');
    expect(JSON.stringify(mc('MC900003').featureStatus)).toContain('FeatureRolloutStatusInProgress');
  });

  it('reads tags, impact flags, services, major change, category, dates', () => {
    const m = mc('MC900004');
    expect(m.isMajorChange).toBe(true);
    expect(m.category).toBe('planForChange');
    expect(m.adminImpact).toBe(true);
    expect(m.userImpact).toBe(false);
    expect(m.actionRequiredByDate!.toISOString()).toBe('2026-03-31T07:00:00.000Z');
    expect(m.endDate!.toISOString()).toBe('2026-09-09T16:30:00.000Z');
    expect(mc('MC900010').userImpact).toBe(true);
    expect(mc('MC900006').services).toEqual(['Microsoft Purview', 'Microsoft Copilot (Microsoft 365)']);
  });

  it('finds roadmap ids in body links when RoadmapIds is absent', () => {
    expect(mc('MC900006').roadmapIds).toEqual([500008, 500011]);
    expect(mc('MC900006').detailRoadmapIds).toEqual([]);
    expect(roadmapIdsFromBody('<a href="https://www.microsoft.com/microsoft-365/roadmap?rtc=1%26filters%3D&amp;searchterms=412345">x</a>')).toEqual([412345]);
    expect(roadmapIdsFromBody('<a href="https://www.microsoft.com/windows/business/roadmap">Windows</a>')).toEqual([]);
    expect(parseRoadmapIdList('492615,478649, 487854,x')).toEqual([492615, 478649, 487854]);
  });

  it('strips BOM and zero-width characters from HTML bodies; plain-text bodies become HTML with line breaks', () => {
    expect(mc('MC900009').bodyContent.startsWith('<p>Updated January 20')).toBe(true);
    expect(mc('MC900009').bodyContent).not.toMatch(/[\ufeff\u200b]/);
    expect(mc('MC900005').bodyContent).toContain('timeline.<br>\n<br>\nManage');
    expect(mc('MC900005').bodyContent).toContain('&lt;not a tag');
  });

  it('refuses a page without value, a message without id, duplicate ids', () => {
    expect(() => messageRecordsFromPayload({ items: [] })).toThrow(FeedFormatError);
    expect(() => messageRecordsFromPayload([{ title: 'x' }])).toThrow(/id/);
    const one = JSON.parse(readFixture('messages-a.json'))[0];
    expect(() => messageRecordsFromPayload([one, one])).toThrow(/twice/);
    expect(messageRecordsFromPayload({ value: [one] })).toHaveLength(1);
  });
});
