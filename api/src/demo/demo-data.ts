import { messageRecordsFromPayload, roadmapRecordsFromPayload } from '../sources/normalize.js';
import type { MessageRecord, RoadmapRecord } from '../sources/types.js';
import { DEMO_MESSAGES } from './demo-messages.js';
import { DEMO_ROADMAP } from './demo-roadmap.js';

/**
 * The offline demo data set, built in the feeds' own raw formats (roadmap v1 items, Graph serviceUpdateMessages)
 * with dates relative to `now`, then run through the same normalisation as live data. Ids are outside the real
 * ranges (roadmap 990001+, MC099001+) and every description says it is demo data.
 */
export const DEMO_NOTICE = 'Demo data shipped with M365 Radar for offline use; not from Microsoft.';
const DAY = 24 * 60 * 60 * 1000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WW = 'Worldwide (Standard Multi-Tenant)';
const PLATFORMS = [['Web'], ['Desktop', 'Web'], ['Desktop', 'Mac', 'Web'], ['Android', 'iOS'], ['Desktop']];

const noZone = (d: Date) => d.toISOString().slice(0, 19);
const monthCY = (d: Date) => `${MONTHS[d.getUTCMonth()]} CY${d.getUTCFullYear()}`;
const tags = (names: string[]) => names.map((tagName) => ({ tagName }));
export const demoRoadmapId = (index: number) => 990001 + index;

export function demoRoadmapRaw(now: Date): unknown[] {
  return DEMO_ROADMAP.map(([product, feature, description, status, daysAgo], i) => {
    const created = new Date(now.getTime() - daysAgo * DAY);
    const modified = status === 'In development' ? created : new Date(Math.min(now.getTime(), created.getTime() + 20 * DAY));
    const ga = new Date(created.getTime() + (status === 'Launched' ? 30 : 90) * DAY);
    const clouds = i % 4 === 0 ? [WW, 'GCC', 'GCC High', 'DoD'] : [WW];
    const phases = i % 3 === 0 ? ['Preview', 'General Availability'] : ['General Availability'];
    const container = { products: tags([product]), cloudInstances: tags(clouds), releasePhase: tags(phases), platforms: tags(PLATFORMS[i % PLATFORMS.length]) };
    return {
      id: demoRoadmapId(i),
      title: `${product}: ${feature}`,
      description: `${description} ${DEMO_NOTICE}`,
      moreInfoLink: null,
      publicDisclosureAvailabilityDate: monthCY(ga),
      publicPreviewDate: phases.includes('Preview') ? monthCY(new Date(ga.getTime() - 30 * DAY)) : '',
      created: noZone(created),
      publicRoadmapStatus: 'Include this month',
      status,
      modified: noZone(modified),
      locale: null,
      tags: [...container.cloudInstances, ...container.platforms, ...container.products, ...container.releasePhase],
      tagsContainer: container,
    };
  });
}

export function demoMessagesRaw(now: Date): unknown[] {
  return DEMO_MESSAGES.map(([suffix, title, service, category, tagList, summary, roadmapIndexes, daysAgo]) => {
    const start = new Date(now.getTime() - daysAgo * DAY);
    const updated = tagList.includes('Updated message') ? new Date(now.getTime() - Math.max(0, daysAgo - 1) * DAY + 3 * 3600_000) : start;
    const ids = roadmapIndexes.map(demoRoadmapId);
    const details = [
      ...(ids.length ? [{ name: 'RoadmapIds', value: ids.join(',') }] : []),
      { name: 'Summary', value: summary },
      { name: 'Platforms', value: 'Web, Desktop' },
    ];
    const link = ids.length
      ? `<p>This message is associated with Microsoft 365 Roadmap ID <a href="https://www.microsoft.com/microsoft-365/roadmap?filters=&amp;searchterms=${ids[0]}" target="_blank">${ids[0]}</a>.</p>`
      : '';
    return {
      startDateTime: start.toISOString(),
      endDateTime: new Date(now.getTime() + 120 * DAY).toISOString(),
      lastModifiedDateTime: new Date(Math.min(updated.getTime(), now.getTime())).toISOString(),
      title,
      id: `MC099${suffix}`,
      category,
      severity: 'normal',
      tags: tagList,
      isMajorChange: category === 'planForChange',
      actionRequiredByDateTime: category === 'planForChange' ? new Date(now.getTime() + 60 * DAY).toISOString() : null,
      services: [service],
      hasAttachments: false,
      viewPoint: null,
      details,
      body: {
        contentType: 'html',
        content: `<p>${summary}</p>${link}<p>[When this will happen:]</p><p>Rollout begins in the coming weeks.</p><p>[How this will affect your organization:]</p><p>${summary}</p><p><i>${DEMO_NOTICE}</i></p>`,
      },
    };
  });
}

export function demoRecords(now: Date): { roadmap: RoadmapRecord[]; messages: MessageRecord[] } {
  return { roadmap: roadmapRecordsFromPayload(demoRoadmapRaw(now)), messages: messageRecordsFromPayload(demoMessagesRaw(now)) };
}
