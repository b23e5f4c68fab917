// Vitest's global setup for the api suite: the same PostgreSQL and template database as jest's suites
// (global-setup.mjs), stopped by the function it returns (global-teardown.mjs).
import setup from './global-setup.mjs';
import teardown from './global-teardown.mjs';

export default async function vitestGlobalSetup() {
  await setup();
  return teardown;
}
