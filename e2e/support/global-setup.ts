import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSmtpServer } from './smtp.js';
import { startReplayServer } from '../../api/test/replay-server.js';
import { assertBuilt, startBuiltProduct } from '../../api/test/built-product.js';
import { demoMessagesRaw, demoRoadmapRaw } from '../../api/src/demo/demo-data.js';

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
  const now = new Date();
  const feeds = await startReplayServer({
    roadmaps: { demo: JSON.stringify(demoRoadmapRaw(now)) },
    messages: { demo: demoMessagesRaw(now) },
    pageSize: 20,
  });

  let product: Awaited<ReturnType<typeof startBuiltProduct>>;
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
      },
    });
  } catch (error) {
    await smtp.close();
    await feeds.close();
    throw error;
  }

  process.env.RADAR_BASE_URL = product.baseUrl;
  process.env.RADAR_MAIL_DIR = mailDir;

  return async () => {
    await product.stop();
    await smtp.close();
    await feeds.close();
    fs.rmSync(work, { recursive: true, force: true });
  };
}
