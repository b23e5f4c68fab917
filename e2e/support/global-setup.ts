import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AdminApiError, adminSync, signInByApi } from './admin-api.js';
import { feedSnapshots } from './feeds.js';
import { startSmtpServer } from './smtp.js';
import { AGENCY, agencyPosts, startAgencyGraph } from './tenants.js';
import type { TenantGraphServer } from '../../api/test/tenant-graph-server.js';
import { startReplayServer, type ReplayServer } from '../../api/test/replay-server.js';
import { assertBuilt, startBuiltProduct, type BuiltProduct } from '../../api/test/built-product.js';

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
  // The tenants suite adds a GCC High tenant whose Graph is this local server (support/tenants.ts).
  const agencyGraph = await startAgencyGraph(now);

  let product: BuiltProduct | undefined;
  let control: http.Server | undefined;
  try {
    product = await startBuiltProduct({
      dataDir: path.join(work, 'data'),
      feeds,
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'radar@localhost',
        LOG_LEVEL: process.env.RADAR_E2E_LOG_LEVEL ?? 'warn',
        // This address is made an Admin on sign-up (see pages/AdminPage.ts).
        ADMIN_EMAILS: process.env.RADAR_E2E_ADMIN_EMAIL ?? 'e2e-admin@example.com',
        // Every dashboard visit counts as a new one, so the since-last-visit suite needs no waiting.
        LAST_VISIT_UPDATE_SECONDS: '0',
        // The impersonation tool (a development tool, off in production by default) is on here, so its card and the
        // admin's way back from a lesser role (Access Denied's Clear impersonation) are tested end to end.
        IMPERSONATION_ENABLED: 'true',
        // Alert webhooks go to receivers on 127.0.0.1 in the suites (the SSRF guard refuses loopback otherwise).
        ALLOW_PRIVATE_WEBHOOKS: 'true',
        // Every browser of the suite signs in from 127.0.0.1: the default of 20 code mails per address per 15 minutes
        // is reached once the suite has more than 20 sign-ins (a refused one shows only a toast, and the test waits for
        // the code step in vain). The per-address limit itself is tested in the security suite (api/test/security).
        SIGN_IN_SENDS_PER_IP: '1000',
        // Every browser of the suite is 127.0.0.1 and the workers share a few users: the cache-miss budget (tested in
        // the fault suite and the api tests) would otherwise refuse the suites' many distinct lists.
        CACHE_MISS_BUDGET: '0',
        GRAPH_CLOUD_URLS: JSON.stringify({ gcchigh: { authorityUrl: agencyGraph.url, graphUrl: agencyGraph.url } }),
      },
    });
    const { baseUrl } = product;
    // The second version of the feeds, synced the way an admin does it, so items have history to compare.
    const signInAdmin = () =>
      signInByApi(baseUrl, mailDir, { email: process.env.RADAR_E2E_ADMIN_EMAIL ?? 'e2e-admin@example.com', firstName: 'Erin', lastName: 'Admin' });
    const adminCookie = await signInAdmin();
    feeds.setRoadmap('v2');
    feeds.setMessages('v2');
    await adminSync(baseUrl, adminCookie, 'roadmap');
    await adminSync(baseUrl, adminCookie, 'messages');
    control = await startFeedControl(feeds, agencyGraph, baseUrl, adminCookie, signInAdmin);
  } catch (error) {
    await product?.stop();
    await smtp.close();
    await feeds.close();
    await agencyGraph.close();
    throw error;
  }

  process.env.RADAR_BASE_URL = product.baseUrl;
  process.env.RADAR_MAIL_DIR = mailDir;
  // Worker sessions kept for the run (support/fixtures.ts): a worker re-created after a failure reuses them.
  process.env.RADAR_E2E_STATE_DIR = fs.mkdtempSync(path.join(work, 'states-'));
  process.env.RADAR_FEED_CONTROL_URL = `http://127.0.0.1:${(control.address() as net.AddressInfo).port}`;

  return async () => {
    await product?.stop();
    await new Promise((resolve) => control?.close(resolve));
    await smtp.close();
    await feeds.close();
    await agencyGraph.close();
    fs.rmSync(work, { recursive: true, force: true });
  };
}

/**
 * A local endpoint for the suites (they run in other processes than the replay server): `POST /roadmap/{snapshot}`
 * or `POST /messages/{snapshot}` switches the replayed feed and runs the admin sync, answering the sync's result.
 */
function startFeedControl(
  feeds: ReplayServer,
  agencyGraph: TenantGraphServer,
  baseUrl: string,
  firstCookie: string,
  signIn: () => Promise<string>,
): Promise<http.Server> {
  let adminCookie = firstCookie;
  const server = http.createServer((req, res) => {
    // The Agency tenant's Message Center (support/tenants.ts): `POST /agency/posts/{id|all}` lists one post no more
    // (Microsoft expired it) or every post again; the suite then syncs the tenant as an admin does.
    const agency = /^\/agency\/posts\/(\w+)$/.exec(req.url ?? '');
    if (req.method === 'POST' && agency) {
      const tenant = agencyGraph.tenants.get(AGENCY.directoryId);
      if (tenant) tenant.messages = agency[1] === 'all' ? agencyPosts(new Date()) : tenant.messages.filter((m) => (m as { id?: string }).id !== agency[1]);
      res.writeHead(tenant ? 204 : 404).end();
      return;
    }
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
