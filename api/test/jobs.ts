import { createJobRunner, type JobRunner } from '../src/jobs/agenda.js';
import type { TestContext } from './context.js';

/**
 * A real Agenda on the test database, polling fast and with short job locks so that the timers Agenda leaves
 * behind expire quickly and jest can exit. Always `await runner.stop()` in a finally or afterAll.
 */
export function createTestJobRunner(t: TestContext): JobRunner {
  return createJobRunner(t.ctx, t.database.url, { processEveryMs: 200, lockLifetimeMs: 1000 });
}
