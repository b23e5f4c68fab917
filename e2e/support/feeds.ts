import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoMessagesRaw, demoRoadmapRaw, demoRoadmapId } from '../../api/src/demo/demo-data.js';

/**
 * The feed snapshots the e2e product is fed, in the real roadmap-feed and Graph formats: the shipped demo data set
 * plus real records from the recorded fixtures (support/data/archive-records.json, copied verbatim from
 * ../shared/fixtures/m365) so the suites see real versions:
 *
 *   v1  the product's first sync (at start): 313800 "Rolling out", 536571 GA "March CY2026", MC1024404 active
 *   v2  synced by the global setup as an admin: 313800 "Launched", 536571 GA "April CY2026" (a date slip),
 *       MC1024404 gone from Graph (expired)
 *   v3  synced by the since-last-visit suite (through the feed control): demo item 990001 renamed
 *   messages v3  synced by the saved-search suite: MC099006 (Purview retention for Loop workspaces) gets a new title
 *   v4  synced by the triage suite: v3 and two new roadmap items, one for GCC High (and other clouds), one worldwide
 */
const here = path.dirname(fileURLToPath(import.meta.url));
type Raw = Record<string, unknown>;
interface Records {
  roadmap: Record<string, { A: Raw; B: Raw }>;
  messages: Record<string, { A: Raw }>;
}
const records = JSON.parse(fs.readFileSync(path.join(here, 'data/archive-records.json'), 'utf8')) as Records;

export const ARCHIVE_IDS = {
  /** Rolling out in v1, Launched in v2 (the recording's example). */
  statusChange: '313800',
  /** GA March CY2026 in v1, April CY2026 in v2. */
  dateSlip: '536571',
  /** Active in v1, expired in v2. */
  expiring: 'MC1024404',
  /** Renamed in v3. */
  renamedLater: String(demoRoadmapId(0)),
  /** Retitled in messages v3. */
  alertedMessage: 'MC099006',
  /** New in v4: a GCC High item, and a worldwide one. */
  newGccHigh: '995001',
  newWorldwide: '995002',
} as const;

/** MC099006's title in messages v3. */
export const ALERTED_MESSAGE_NEW_TITLE = 'Microsoft Purview: Retention for Loop workspaces and Loop pages';

const DAY = 24 * 60 * 60 * 1000;

/** What the date-slip item's description gains between v1 and v2. */
export const DATE_SLIP_ADDED_SENTENCE = 'The rollout now also reaches tenants in the Government Community Cloud.';

export function feedSnapshots(now: Date) {
  const demoRoadmap = demoRoadmapRaw(now) as Raw[];
  const demoMessages = demoMessagesRaw(now) as Raw[];
  // In B the date-slip item's description also gains a sentence, so Change History always holds a word diff.
  const real = (version: 'A' | 'B') =>
    Object.values(records.roadmap).map((r) =>
      version === 'B' && String(r.B.id) === ARCHIVE_IDS.dateSlip
        ? { ...r.B, description: `${String(r.B.description)} ${DATE_SLIP_ADDED_SENTENCE}` }
        : r[version],
    );
  // Recorded in January 2026, so its end date has long passed: move it a day past the product's clock, as Graph
  // only lists active posts. It then drops out of v2, which is how a post expires.
  const expiring = { ...records.messages[ARCHIVE_IDS.expiring]!.A, endDateTime: new Date(now.getTime() + DAY).toISOString() };
  const v3Roadmap = [
    ...demoRoadmap.map((item) => (String(item.id) === ARCHIVE_IDS.renamedLater ? { ...item, title: `${String(item.title)} (renamed)` } : item)),
    ...real('B'),
  ];
  // Demo items 0 (every cloud, GCC High among them) and 1 (worldwide only), as two new items still to come (a launched
  // one would be past at the triage starting line, and a rule would open it closed before tracking).
  const arrivals = [ARCHIVE_IDS.newGccHigh, ARCHIVE_IDS.newWorldwide].map((id, i) => {
    const item = demoRoadmap[i] as Raw;
    return { ...item, id: Number(id), status: 'In development', title: `${String(item.title)} (new in v4)` };
  });
  return {
    roadmaps: {
      v1: JSON.stringify([...demoRoadmap, ...real('A')]),
      v2: JSON.stringify([...demoRoadmap, ...real('B')]),
      v3: JSON.stringify(v3Roadmap),
      v4: JSON.stringify([...v3Roadmap, ...arrivals]),
    },
    messages: {
      v1: [...demoMessages, expiring],
      v2: demoMessages,
      v3: demoMessages.map((m) => (m.id === ARCHIVE_IDS.alertedMessage ? { ...m, title: ALERTED_MESSAGE_NEW_TITLE } : m)),
    },
  };
}
