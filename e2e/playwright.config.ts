import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * Drives Debian's Chromium, its headless shell where installed (browsers cannot be downloaded here), against the
 * real built product, which support/global-setup.ts starts on a free port together with an in-process SMTP server.
 * Run `npm run build` at the root first.
 */
/**
 * Traces are recorded for every test and kept for the failed ones: DOM snapshots at each action, which the page's
 * renderer pays for. CI keeps only its printed output, so there a trace would be recorded and never read: it runs
 * without, and `RADAR_E2E_TRACE=retain-on-failure` (or `on`) turns them back on.
 */
function traceMode(): 'off' | 'on' | 'retain-on-failure' {
  const asked = process.env.RADAR_E2E_TRACE;
  if (asked === 'off' || asked === 'on' || asked === 'retain-on-failure') return asked;
  if (asked) throw new Error(`RADAR_E2E_TRACE must be off, on or retain-on-failure, not ${asked}`);
  return process.env.CI ? 'off' : 'retain-on-failure';
}

/**
 * Debian's old headless shell (`chromium-headless-shell`), the browser Playwright itself runs headless tests in: the
 * same Blink as Chromium without the full browser around it, about a third less CPU a test here (docs/operations.md,
 * "CI and build times"). Full Chromium where the shell is not installed; `CHROMIUM_PATH` overrides both.
 */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium';
}

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  // One api instance on a 2-core machine: run the files one after another.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  use: {
    // Set by support/global-setup.ts before the workers start (workers load this file again and inherit the env);
    // support/fixtures.ts sets it as well.
    baseURL: process.env.RADAR_BASE_URL,
    // A failed test keeps its trace: every action's DOM snapshot, network and console. Without the screencast film
    // strip, which cost about 15% of the suite's time on two cores (docs/operations.md, "CI");
    // RADAR_E2E_TRACE_SCREENSHOTS=true records it again.
    trace: { mode: traceMode(), screenshots: process.env.RADAR_E2E_TRACE_SCREENSHOTS === 'true' },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
