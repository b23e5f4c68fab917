import { afterEach, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../test/context.js';
import { createTestJobRunner } from '../../test/jobs.js';
import type { JobRunner } from './agenda.js';

/**
 * The job runner's part of a shutdown past its budget (shutdown.ts): drain() waits for the running jobs, and when the
 * budget is used up close() is called while one may still run. Agenda keeps its notification channel's connection
 * out of the runner's pool until the drain ends, so close() must end the drain or the pool can never end.
 */
let t: TestContext | undefined;
let runner: JobRunner | undefined;
let release: (() => void) | undefined;
afterEach(async () => {
  release?.();
  await runner?.stop();
  await t?.close();
  runner = t = release = undefined;
});

it('close() past the budget ends the drain and the pool while a job still runs', async () => {
  t = await createTestContext();
  runner = createTestJobRunner(t);
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  const held = new Promise<void>((resolve) => (release = resolve));
  let finished = false;
  runner.agenda.define('held-job', async () => {
    running();
    await held;
    finished = true;
  });
  await runner.start();
  await runner.agenda.now('held-job');
  await started;

  let drainEnded = false;
  const draining = runner.drain().then(() => (drainEnded = true));
  // The drain waits for the job: a poll of the database lets it go on waiting meanwhile.
  await t.database.pool.query('SELECT 1');
  expect(drainEnded).toBe(false);

  // Before, close() never resolved here: pool.end() waited for the channel's connection the drain still held.
  await runner.close();
  await draining;
  expect(drainEnded).toBe(true);
  expect(finished).toBe(false);
});
