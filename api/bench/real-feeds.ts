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
import type { SyncServiceDeps } from '../src/features/sync/sync-types.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/m365');
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

const read = (file: string) => parseJsonText(fs.readFileSync(path.join(FIXTURES, file), 'utf8'), file);

/** The production sync at the moment `at`, for recorded files only; `guard` as SyncServiceDeps' (the default's 10 %). */
function syncAt(database: Database, at: string, guard?: SyncServiceDeps['guard']) {
  const refuse = async () => {
    throw new Error('the bench applies recorded files only');
  };
  return createSyncService({
    db: database.db,
    pool: database.pool,
    clock: fixedClock(at),
    log: createLogger('warn'),
    fetchRoadmap: refuse,
    fetchMessages: refuse,
    ...(guard ? { guard } : {}),
  });
}

/** The Message Center of 2026-08-22, in the 2026 post format (when the recorded feeds hold it). */
export const AUGUST_MESSAGES = { file: 'messages-2026-08-22.json', at: '2026-08-22T00:00:00Z' };

/**
 * Applies one recorded Message Center file at `at`, whatever it removes (the removal guard is off: a bench that wants
 * every post's words applies snapshots months apart).
 */
export async function applyRecordedMessages(database: Database, file: string, at: string): Promise<void> {
  const sync = syncAt(database, at, { maxRemovedPercent: 100, minRemovedItems: 25 });
  await sync.applyMessages(messageRecordsFromPayload(read(file)), { trigger: 'cli' });
}

/** Applies both snapshots in order; returns the number of listed (not removed) items. */
export async function loadRealFeeds(database: Database): Promise<number> {
  for (const snapshot of SNAPSHOTS) {
    const sync = syncAt(database, snapshot.at);
    await sync.applyRoadmap(roadmapRecordsFromPayload(read(`roadmap-v1-${snapshot.date}.json`)), { trigger: 'cli' });
    await sync.applyMessages(messageRecordsFromPayload(read(`messages-${snapshot.date}.json`)), { trigger: 'cli' });
  }
  const { rows } = await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE NOT is_removed');
  return rows[0]!.n;
}
