import { changeHealthSummary } from '@radar/contracts';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import { fixedClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import { createFeedClients, createSyncServiceFor } from '../src/features/sync/wiring.js';
import { trackerPort } from '../src/features/trackers/tracker-port.js';
import { overdueOn } from '../src/features/triage/triage-views.js';
import { createTriageReportsRepo } from '../src/features/triage/triage-reports.repo.js';
import { createTriageRulesRepo } from '../src/features/triage/triage-rules.repo.js';
import { triageSnapshotReactor } from '../src/features/triage/triage-snapshot.js';
import { createUser } from '../test/factories.js';
import { CLIENT_ID, CLIENT_SECRET, startReplayServer, TENANT } from '../test/replay-server.js';
import { readYear, weekMessages, type McYear } from './fixtures/build-mc-year.js';
import { withBenchDatabase } from './bench-db.js';
import type { Bench } from './run.js';

/**
 * A year of the Message Center, one week at a time: the 53 weekly snapshots of one real tenant's feed
 * (bench/fixtures/mc-weekly.json.br, 2025-08-23 to 2026-08-22; SOURCES.md there) synced through the production
 * client and sync, with triage's defaults, the product's clock at each snapshot's own time, and four rules a team of
 * one admin would write. Nobody works the queue: the table is the load the defaults and the rules leave to a person.
 */
/** The rules of the run, in order (the first rule to set a field decides it). */
const RULES = [
  {
    name: 'Major changes and retirements: mine, high',
    query: { messageCenterTags: ['Major change', 'Retirement'] },
    owner: true,
    setState: 'relevant',
    setPriority: 'high',
  },
  { name: 'Plan for change: mine', query: { statuses: ['planForChange'] }, owner: true, setState: null, setPriority: null },
  {
    name: 'Dynamics 365 and Power Platform: not ours',
    query: { productFamilies: ['dynamics365', 'powerPlatform'] },
    owner: false,
    setState: 'not_relevant',
    setPriority: null,
  },
  { name: 'Stay informed: for reading', query: { statuses: ['stayInformed'] }, owner: false, setState: 'not_relevant', setPriority: null },
] as const;

interface WeekRow {
  date: string;
  posts: number;
  newRecords: number;
  beforeTracking: number;
  routedByRule: number;
  closedByRule: number;
  needsPerson: number;
  open: number;
  unowned: number;
  overdue: number;
  dueSoonNew: number;
  fellDue: number;
  score: number;
  syncMs: number;
}

async function run(): Promise<string> {
  const year = readYear();
  const messages = Object.fromEntries(year.weeks.map((w) => [w.date, weekMessages(year, w)]));
  const server = await startReplayServer({ messages, pageSize: 100 });
  try {
    return await withBenchDatabase({ poolMax: 4 }, async (database) => {
      const clock = fixedClock(year.weeks[0]!.committedAt);
      const config = loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: database.url,
        GRAPH_AUTHORITY_URL: server.url,
        GRAPH_API_URL: server.graphApiUrl,
        GRAPH_TENANT_ID: TENANT,
        GRAPH_CLIENT_ID: CLIENT_ID,
        GRAPH_CLIENT_SECRET: CLIENT_SECRET,
        FEED_TIMEOUT_MS: '60000',
        FEED_RETRIES: '0',
        // A week's gap removes more posts at once than an hourly sync ever sees: the removal guard would hold it.
        SYNC_MAX_REMOVED_PERCENT: '100',
      });
      const log = createLogger('silent');
      const sync = createSyncServiceFor(
        { config, db: database.db, pool: database.pool, clock, log },
        { clients: createFeedClients(config, clock, log, database.db), reactors: [triageSnapshotReactor({ trackers: trackerPort, log })] },
      );
      const admin = await createUser(database.db, { email: 'admin@example.com', roles: ['admin'] });
      const rulesRepo = createTriageRulesRepo(database.db);
      for (const r of RULES) {
        await rulesRepo.insert(
          { name: r.name, query: r.query, setOwnerId: r.owner ? admin.id : null, setState: r.setState, setPriority: r.setPriority },
          new Date(year.weeks[0]!.committedAt),
        );
      }
      const rows: WeekRow[] = [];
      let lastId = 0;
      for (const week of year.weeks) {
        clock.set(week.committedAt);
        server.setMessages(week.date);
        const started = performance.now();
        const result = await sync.syncMessages({ trigger: 'cli' });
        const syncMs = performance.now() - started;
        if (result.run.status !== 'success') throw new Error(`week ${week.date}: sync ${result.run.status}: ${result.run.errorMessage ?? ''}`);
        const today = week.committedAt.slice(0, 10);
        const open = sql`tr.state IN ('new', 'relevant', 'in_progress')`;
        const { rows: counts } = await database.db.execute<Record<string, number>>(sql`
          SELECT
            count(*) FILTER (WHERE tr.id > ${lastId})::int AS new_records,
            count(*) FILTER (WHERE tr.id > ${lastId} AND tr.closed_reason = 'before_tracking')::int AS before_tracking,
            count(*) FILTER (WHERE tr.id > ${lastId} AND tr.rule_fields ? 'owner')::int AS routed,
            count(*) FILTER (WHERE tr.id > ${lastId} AND tr.rule_fields ? 'state' AND tr.state IN ('done', 'not_relevant'))::int AS closed_by_rule,
            count(*) FILTER (WHERE tr.id > ${lastId} AND ${open} AND tr.owner_id IS NULL)::int AS needs_person,
            count(*) FILTER (WHERE ${open})::int AS open,
            count(*) FILTER (WHERE ${open} AND tr.owner_id IS NULL)::int AS unowned,
            count(*) FILTER (WHERE ${open} AND ${overdueOn(today)})::int AS overdue,
            count(*) FILTER (WHERE ${open} AND tr.state = 'new' AND tr.due_date BETWEEN ${today}::date AND ${today}::date + 14)::int AS due_soon_new,
            count(*) FILTER (WHERE ${open} AND tr.due_date > ${today}::date - 7 AND tr.due_date <= ${today}::date)::int AS fell_due,
            coalesce(max(tr.id), 0)::int AS last_id
          FROM triage_records tr`);
        const c = counts[0]!;
        lastId = Number(c.last_id);
        const health = await createTriageReportsRepo(database.db).health('all', 'all', new Date(week.committedAt));
        const row: WeekRow = {
          date: week.date,
          posts: week.messages.length,
          newRecords: Number(c.new_records),
          beforeTracking: Number(c.before_tracking),
          routedByRule: Number(c.routed),
          closedByRule: Number(c.closed_by_rule),
          needsPerson: Number(c.needs_person),
          open: Number(c.open),
          unowned: Number(c.unowned),
          overdue: Number(c.overdue),
          dueSoonNew: Number(c.due_soon_new),
          fellDue: Number(c.fell_due),
          score: changeHealthSummary(health.sums, health.records).score,
          syncMs,
        };
        rows.push(row);
        process.stdout.write(`${JSON.stringify(row)}\n`);
      }
      return report(year, rows);
    });
  } finally {
    await server.close();
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2 : 0;
}

function report(year: McYear, rows: WeekRow[]): string {
  const weekly = rows.slice(1);
  const sum = (f: (r: WeekRow) => number) => weekly.reduce((n, r) => n + f(r), 0);
  const first = rows[0]!;
  const last = rows.at(-1)!;
  const table = [
    "| week of | posts in the feed | new records | closed before tracking | given an owner by a rule | closed by a rule | new, left to a person | open at the week's end | of them unowned | fell due this week | overdue | New and due within 14 days | change health | sync |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.date} | ${r.posts} | ${r.newRecords} | ${r.beforeTracking} | ${r.routedByRule} | ${r.closedByRule} | ${r.needsPerson} | ${r.open} | ${r.unowned} | ${r.fellDue} | ${r.overdue} | ${r.dueSoonNew} | ${r.score} | ${(r.syncMs / 1000).toFixed(1)} s |`,
    ),
  ].join('\n');
  const rules = RULES.map(
    (r, i) =>
      `${i + 1}. **${r.name}**: ${JSON.stringify(r.query)} → ${[r.owner ? 'owner: the admin' : '', r.setState ? `state: ${r.setState}` : '', r.setPriority ? `priority: ${r.setPriority}` : ''].filter(Boolean).join(', ')}`,
  ).join('\n');
  return `
${year.weeks.length} weekly snapshots of one real tenant's Message Center (${year.weeks[0]!.date} to ${last.date}; ${year.versions.length} distinct post versions;
source ${year.source.repository}, see api/bench/fixtures/SOURCES.md), each synced through the production Graph client,
sync and triage with the product's clock at the snapshot's own time. Triage starts with the first sync (the starting line,
default window of 30 days); the records are the tenantless feed's. The rules of the run, in order:

${rules}

Nobody works the queue in this run: every count is what the defaults and the rules leave to a person. "New, left to a
person" is the week's new records still open and without an owner after the rules ran.

${table}

**What this means for a team of one admin.** Day one opens ${first.newRecords - first.beforeTracking} records of ${first.posts} posts (${first.beforeTracking} closed before
tracking: on the snapshot's own day nearly every listed post is live); the rules close ${first.closedByRule} and give ${first.routedByRule} to the
admin, leaving ${first.needsPerson} unowned. After that a week brings a median of **${median(weekly.map((r) => r.newRecords))} new records** (${sum((r) => r.newRecords)} in the
${weekly.length} weeks): the rules close a median of ${median(weekly.map((r) => r.closedByRule))}, give ${median(weekly.map((r) => r.routedByRule))} to the admin and leave ${median(weekly.map((r) => r.needsPerson))} unowned, so the
admin's week holds a median of **${median(weekly.map((r) => r.routedByRule + r.needsPerson))} new records to decide** and ${median(weekly.map((r) => r.fellDue))} records whose due date falls in it.
Left untouched, the queue grows by what the rules route: after the year it holds ${last.open} open records (${last.unowned} unowned), ${last.overdue}
overdue, and change health has fallen from ${first.score} to ${last.score} (overdue records cost the most). Day one is the rules' heaviest
hand: the two rules that give the admin major changes and plans for change give ${first.routedByRule} records at once, so a team
would start them narrower (one service, or "Only products we license") and widen them once the first week is read.
Without the rules every one of the day-one ${first.newRecords - first.beforeTracking} records would be open and unowned, and so would every week's new ones.

"Opened by rules" is not a column: rules open only roadmap records, and this replay holds no roadmap (no public archive
keeps the roadmap weekly over the same year; pl4nty/data's runs from 2026-01-22 to 2026-07-09 with a month's gap).

Sync time per week: median ${(median(weekly.map((r) => r.syncMs)) / 1000).toFixed(1)} s, day one ${(first.syncMs / 1000).toFixed(1)} s (a full read of the feed through the replay server, zod,
normalisation, diff and triage in one transaction).
`;
}

const bench: Bench = { title: 'A year of the Message Center, week by week: the triage load', run };
export default bench;
