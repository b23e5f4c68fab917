import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/lib/free-port.js';
import { CLIENT_ID, CLIENT_SECRET, TENANT, type ReplayServer } from './replay-server.js';

/**
 * The real built product (`node api/dist/main.js` serving the shell and the three remotes) on a free loopback port,
 * with its feeds pointed at a replay server. The e2e suites (e2e/support/global-setup.ts) and the page-load bench
 * (bench/pageload.bench.ts) both start it this way.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const BUILT_FILES = [
  'api/dist/main.js',
  'shell/dist/index.html',
  'mfe-dashboard/dist/mf-manifest.json',
  'mfe-admin/dist/mf-manifest.json',
  'mfe-digest/dist/mf-manifest.json',
];

/** Throws naming the missing files when `npm run build` has not been run. */
export function assertBuilt(): void {
  const missing = BUILT_FILES.filter((file) => !fs.existsSync(path.join(REPO_ROOT, file)));
  if (missing.length) throw new Error(`Build the product first (npm run build at the root). Missing: ${missing.join(', ')}`);
}

export interface BuiltProduct {
  baseUrl: string;
  /** The last 20,000 characters the api wrote. */
  output(): string;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<void>;
}

export interface StartBuiltProductOptions {
  /** The embedded PostgreSQL's data goes here (its parent must be reachable by the `postgres` user when run as root). */
  dataDir: string;
  feeds: ReplayServer;
  /** More environment (SMTP_URL, ADMIN_EMAILS, LOG_LEVEL…); wins over the defaults. */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Starts the built api in production mode and waits until it is ready and its first sync has stored items from both
 * sources, so callers start from a known data set.
 */
export async function startBuiltProduct(options: StartBuiltProductOptions): Promise<BuiltProduct> {
  assertBuilt();
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const timeoutMs = options.timeoutMs ?? 120_000;
  let output = '';
  const api = spawn(process.execPath, [path.join(REPO_ROOT, 'api/dist/main.js')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: options.dataDir,
      PUBLIC_URL: baseUrl,
      NODE_ENV: 'production',
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      ROADMAP_V2_URL: options.feeds.v2Url,
      ROADMAP_FEED_URL: options.feeds.roadmapUrl,
      // Every roadmap source is the replay server's: nothing ever goes to Microsoft from a test run or a bench.
      ROADMAP_RSS_URL: options.feeds.rssUrl,
      GRAPH_TENANT_ID: TENANT,
      GRAPH_CLIENT_ID: CLIENT_ID,
      GRAPH_CLIENT_SECRET: CLIENT_SECRET,
      GRAPH_AUTHORITY_URL: options.feeds.url,
      GRAPH_API_URL: options.feeds.graphApiUrl,
      FEED_RETRIES: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  api.stdout?.on('data', keep);
  api.stderr?.on('data', keep);
  const stop = async () => {
    if (api.exitCode !== null || api.signalCode !== null) return;
    const exited = new Promise((resolve) => api.once('exit', resolve));
    api.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (api.exitCode === null && api.signalCode === null) api.kill('SIGKILL');
  };
  try {
    const deadline = Date.now() + timeoutMs;
    await waitFor(
      deadline,
      `/readyz within ${timeoutMs} ms`,
      async () => {
        if (api.exitCode !== null) throw new Error(`The api exited with code ${api.exitCode} before it was ready:\n${output}`);
        const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
        return response.ok;
      },
      () => output,
    );
    await waitFor(
      deadline,
      `items from both sources within ${timeoutMs} ms`,
      async () => {
        const response = await fetch(`${baseUrl}/api/dashboard/stats`, { signal: AbortSignal.timeout(5000) });
        const stats = (await response.json()) as { bySource?: { roadmap: number; messages: number } };
        return Boolean(stats.bySource && stats.bySource.roadmap > 0 && stats.bySource.messages > 0);
      },
      () => output,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, output: () => output, stop };
}

/** Polls `check` every 300 ms until it is true; errors thrown with "exited" stop at once, others mean "not yet". */
async function waitFor(deadline: number, what: string, check: () => Promise<boolean>, log: () => string): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      if ((error as Error).message.startsWith('The api exited')) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`The api did not answer ${what}:\n${log()}`);
}
