/**
 * `npm run import -- --roadmap FILE --messages FILE [--as-of ISO-DATE]`
 * Applies recorded feed files through the same sync service as the jobs (history, links, sync history with
 * trigger 'cli'). Uses DATABASE_URL, or the embedded PostgreSQL under DATA_DIR like `npm start`.
 * --as-of sets "now" for the run: Message Center messages whose endDateTime is before it are stored as expired,
 * so replaying an old recording should pass the moment it was fetched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { applyMigrations, connectDatabase } from '../db/client.js';
import { startEmbeddedPostgres, type EmbeddedServer } from '../db/embedded.js';
import { fixedClock, systemClock } from '../lib/clock.js';
import { createLogger } from '../logger.js';
import { messageRecordsFromPayload, parseJsonText, roadmapRecordsFromPayload } from '../sources/normalize.js';
import { guardPolicyOf } from '../features/sync/snapshot-guard.js';
import { createSyncService } from '../features/sync/sync.service.js';
import { createRelevanceService } from '../features/relevance/relevance.service.js';
import { trackerPort } from '../features/trackers/tracker-port.js';
import { triageSnapshotReactor } from '../features/triage/triage-snapshot.js';
import { onRelevanceMoved } from '../features/triage/triage-defaults.repo.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { roadmap: { type: 'string' }, messages: { type: 'string' }, 'as-of': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || (!values.roadmap && !values.messages)) {
    process.stdout.write('usage: npm run import -- --roadmap FILE --messages FILE [--as-of 2026-02-07T00:38:15Z]\n');
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const clock = values['as-of'] ? fixedClock(values['as-of']) : systemClock;
  if (Number.isNaN(clock.now().getTime())) throw new Error(`--as-of is not a date: ${values['as-of']}`);

  // Parse before touching the database: a broken file changes nothing.
  const read = (file: string) => parseJsonText(fs.readFileSync(path.resolve(file), 'utf8'), file);
  const roadmap = values.roadmap ? roadmapRecordsFromPayload(read(values.roadmap)) : null;
  const messages = values.messages ? messageRecordsFromPayload(read(values.messages)) : null;

  let embedded: EmbeddedServer | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    const dataDir = path.resolve(config.DATA_DIR);
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'postgres'),
      persistent: true,
      database: 'radar',
      passwordFile: path.join(dataDir, 'postgres-password'),
    });
    url = embedded.url('radar');
  }
  const database = connectDatabase(url, log, { max: 4 });
  try {
    await applyMigrations(url);
    const refuse = async () => {
      throw new Error('the import CLI applies files only');
    };
    // The snapshot guard applies to files too: a file that would remove too much is held (an admin can apply it).
    const sync = createSyncService({
      db: database.db,
      pool: database.pool,
      clock,
      log,
      fetchRoadmap: refuse,
      fetchMessages: refuse,
      guard: guardPolicyOf(config),
      // As the server wires it: triage opens its records, and its rules run, with each file.
      reactors: [triageSnapshotReactor({ trackers: trackerPort, log })],
      // A changed item's relevance to each tenant follows, as after a sync (and with it its records' default priority).
      onItemsChanged: createRelevanceService({ db: database.db, clock, log, config }, { reactors: [onRelevanceMoved] }).onItemsChanged,
    });
    let failed = false;
    for (const [label, run] of [
      ['roadmap', roadmap && (() => sync.applyRoadmap(roadmap, { trigger: 'cli' }))],
      ['messages', messages && (() => sync.applyMessages(messages, { trigger: 'cli' }))],
    ] as const) {
      if (!run) continue;
      const { run: r } = await run();
      failed ||= r.status !== 'success';
      process.stdout.write(
        `${label}: ${r.status} — processed ${r.itemsProcessed}, new ${r.newItems}, changed ${r.changedItems}, removed ${r.removedItems}, restored ${r.restoredItems}, active ${r.totalItems}${r.errorMessage ? ` (${r.errorMessage})` : ''}${r.status === 'held' ? ` (${r.note}; decide in Sync History)` : ''}\n`,
      );
    }
    return failed ? 1 : 0;
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`import failed: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
