/**
 * The recorded real feeds (../shared/fixtures/m365: two weekly snapshots of the Microsoft 365 Roadmap and a tenant's
 * Message Center) applied through the production sync service to a database of their own, each snapshot at the
 * moment it was recorded (posts past their end date are stored expired, as the live sync would have done then).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/db/client.js';
import { fixedClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import { messageRecordsFromPayload, parseJsonText, roadmapRecordsFromPayload } from '../src/sources/normalize.js';
import { createSyncService } from '../src/features/sync/sync.service.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/m365');
const SNAPSHOTS = [
  { date: '2026-01-31', at: '2026-01-31T12:00:00Z' },
  { date: '2026-02-07', at: '2026-02-07T12:00:00Z' },
];

/** True when the recorded feeds are beside the repository (they are not part of it). */
export function realFeedsAvailable(): boolean {
  return SNAPSHOTS.every(
    (s) => fs.existsSync(path.join(FIXTURES, `roadmap-v1-${s.date}.json`)) && fs.existsSync(path.join(FIXTURES, `messages-${s.date}.json`)),
  );
}

/** Applies both snapshots in order; returns the number of listed (not removed) items. */
export async function loadRealFeeds(database: Database): Promise<number> {
  const refuse = async () => {
    throw new Error('the bench applies recorded files only');
  };
  const read = (file: string) => parseJsonText(fs.readFileSync(path.join(FIXTURES, file), 'utf8'), file);
  for (const snapshot of SNAPSHOTS) {
    const sync = createSyncService({
      db: database.db,
      pool: database.pool,
      clock: fixedClock(snapshot.at),
      log: createLogger('warn'),
      fetchRoadmap: refuse,
      fetchMessages: refuse,
    });
    await sync.applyRoadmap(roadmapRecordsFromPayload(read(`roadmap-v1-${snapshot.date}.json`)), { trigger: 'cli' });
    await sync.applyMessages(messageRecordsFromPayload(read(`messages-${snapshot.date}.json`)), { trigger: 'cli' });
  }
  const { rows } = await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE NOT is_removed');
  return rows[0]!.n;
}
