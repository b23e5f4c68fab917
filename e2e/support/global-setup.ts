import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSmtpServer } from './smtp.js';

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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  api.stdout?.on('data', keep);
  api.stderr?.on('data', keep);

  try {
    await waitForReady(`${baseUrl}/readyz`, api, () => output);
  } catch (error) {
    api.kill('SIGTERM');
    await smtp.close();
    throw error;
  }

  process.env.RADAR_BASE_URL = baseUrl;
  process.env.RADAR_MAIL_DIR = mailDir;

  return async () => {
    if (api.exitCode === null) {
      const exited = new Promise((resolve) => api.once('exit', resolve));
      api.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (api.exitCode === null) api.kill('SIGKILL');
    }
    await smtp.close();
    fs.rmSync(work, { recursive: true, force: true });
  };
}
