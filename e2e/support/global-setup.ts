import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import { AdminApiError, adminSync, signInByApi } from './admin-api.js';
import { feedSnapshots } from './feeds.js';
import { startSmtpServer } from './smtp.js';
import { CLIENT_ID, CLIENT_SECRET, startReplayServer, TENANT, type ReplayServer } from '../../api/test/replay-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForReady(url: string, api: ChildProcess, log: () => string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (api.exitCode !== null) throw new Error(`The api exited with code ${api.exitCode} before it was ready:\n${log()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`The api did not answer ${url} within ${timeoutMs} ms:\n${log()}`);
}

/** Waits until the first sync of both sources has stored items, so suites start from a known data set. */
async function waitForData(baseUrl: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/api/dashboard/stats`, { signal: AbortSignal.timeout(5000) });
      last = await response.text();
      const stats = JSON.parse(last) as { bySource?: { roadmap: number; messages: number } };
      if (stats.bySource && stats.bySource.roadmap > 0 && stats.bySource.messages > 0) return;
    } catch {
      // not ready yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The first sync did not store items within ${timeoutMs} ms (last stats: ${last})`);
}

function assertBuilt(): void {
  const required = ['api/dist/main.js', 'shell/dist/index.html', 'mfe-dashboard/dist/mf-manifest.json', 'mfe-admin/dist/mf-manifest.json', 'mfe-digest/dist/mf-manifest.json'];
  const missing = required.filter((file) => !fs.existsSync(path.join(root, file)));
  if (missing.length) throw new Error(`Build the product first (npm run build at the root). Missing: ${missing.join(', ')}`);
}

/**
 * Starts an SMTP server and the real built product (node api/dist/main.js) on free ports, with a fresh data
 * directory, and tells the workers where they are through environment variables. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  assertBuilt();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-e2e-'));
  // mkdtemp makes a 0700 directory; the embedded PostgreSQL runs as its own user when we are root and must reach
  // its data directory inside.
  fs.chmodSync(work, 0o755);
  const mailDir = path.join(work, 'mail');
  fs.mkdirSync(mailDir);
  const smtp = await startSmtpServer(mailDir);
  // The product's data comes through the real sync path: a local server replays the shipped demo data set in the
  // real roadmap-feed and Graph formats (no traffic leaves this machine), so admin-triggered syncs succeed too.
  // It holds real records in several versions (support/feeds.ts): v1 is served first, v2 is synced below.
  const now = new Date();
  const feeds = await startReplayServer({ ...feedSnapshots(now), pageSize: 20 });
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;

  let output = '';
  const api = spawn(process.execPath, [path.join(root, 'api/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: path.join(work, 'data'),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'radar@localhost',
      PUBLIC_URL: baseUrl,
      NODE_ENV: 'production',
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      LOG_LEVEL: process.env.RADAR_E2E_LOG_LEVEL ?? 'warn',
      // This address is made an Admin on sign-up (see pages/AdminPage.ts).
      ADMIN_EMAILS: process.env.RADAR_E2E_ADMIN_EMAIL ?? 'e2e-admin@example.com',
      ROADMAP_FEED_URL: feeds.roadmapUrl,
      // The RSS fallback is the replay server's too: nothing ever goes to Microsoft from a test run.
      ROADMAP_RSS_URL: feeds.rssUrl,
      GRAPH_TENANT_ID: TENANT,
      GRAPH_CLIENT_ID: CLIENT_ID,
      GRAPH_CLIENT_SECRET: CLIENT_SECRET,
      GRAPH_AUTHORITY_URL: feeds.url,
      GRAPH_API_URL: feeds.graphApiUrl,
      FEED_RETRIES: '0',
      // Every dashboard visit counts as a new one, so the since-last-visit suite needs no waiting.
      LAST_VISIT_UPDATE_SECONDS: '0',
      // Alert webhooks go to receivers on 127.0.0.1 in the suites (the SSRF guard refuses loopback otherwise).
      ALLOW_PRIVATE_WEBHOOKS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  api.stdout?.on('data', keep);
  api.stderr?.on('data', keep);

  let control: http.Server | undefined;
  try {
    await waitForReady(`${baseUrl}/readyz`, api, () => output);
    await waitForData(baseUrl);
    // The second version of the feeds, synced the way an admin does it, so items have history to compare.
    const signInAdmin = () =>
      signInByApi(baseUrl, mailDir, { email: process.env.RADAR_E2E_ADMIN_EMAIL ?? 'e2e-admin@example.com', firstName: 'Erin', lastName: 'Admin' });
    const adminCookie = await signInAdmin();
    feeds.setRoadmap('v2');
    feeds.setMessages('v2');
    await adminSync(baseUrl, adminCookie, 'roadmap');
    await adminSync(baseUrl, adminCookie, 'messages');
    control = await startFeedControl(feeds, baseUrl, adminCookie, signInAdmin);
  } catch (error) {
    api.kill('SIGTERM');
    await smtp.close();
    await feeds.close();
    throw error;
  }

  process.env.RADAR_BASE_URL = baseUrl;
  process.env.RADAR_MAIL_DIR = mailDir;
  process.env.RADAR_FEED_CONTROL_URL = `http://127.0.0.1:${(control.address() as net.AddressInfo).port}`;

  return async () => {
    if (api.exitCode === null) {
      const exited = new Promise((resolve) => api.once('exit', resolve));
      api.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (api.exitCode === null) api.kill('SIGKILL');
    }
    await new Promise((resolve) => control?.close(resolve));
    await smtp.close();
    await feeds.close();
    fs.rmSync(work, { recursive: true, force: true });
  };
}

/**
 * A local endpoint for the suites (they run in other processes than the replay server): `POST /roadmap/{snapshot}`
 * or `POST /messages/{snapshot}` switches the replayed feed and runs the admin sync, answering the sync's result.
 */
function startFeedControl(feeds: ReplayServer, baseUrl: string, firstCookie: string, signIn: () => Promise<string>): Promise<http.Server> {
  let adminCookie = firstCookie;
  const server = http.createServer((req, res) => {
    const match = /^\/(roadmap|messages)\/(\w+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      res.writeHead(404).end();
      return;
    }
    const [, source, snapshot] = match as unknown as [string, 'roadmap' | 'messages', string];
    (async () => {
      if (source === 'roadmap') feeds.setRoadmap(snapshot);
      else feeds.setMessages(snapshot);
      try {
        return await adminSync(baseUrl, adminCookie, source);
      } catch (error) {
        // A suite that changes the admin's roles ends the admin's sessions (a change of privileges): sign in again.
        if (!(error instanceof AdminApiError && error.status === 401)) throw error;
        adminCookie = await signIn();
        return adminSync(baseUrl, adminCookie, source);
      }
    })().then(
      (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
