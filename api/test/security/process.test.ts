import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { securityWarnings, loadConfig } from '../../src/config.js';
import { freePort } from '../../src/lib/free-port.js';

/**
 * The real process (api/src/main.ts, run from source), as an operator starts it: with impersonation forced on in
 * production it logs a warning at every start; the embedded database it starts is reachable on loopback only with the
 * install's own password.
 */
const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(apiDir, '../node_modules/.bin/tsx');
let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-process-'));
  fs.chmodSync(work, 0o755);
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  lines: { level: number; msg: string }[];
  port: number;
}

async function start(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|SMTP_URL|PUBLIC_URL|SESSION_SECRET|IMPERSONATION_ENABLED|NODE_ENV|TRUST_PROXY)$/.test(k)),
  );
  const child = spawn(tsx, ['--conditions=source', 'src/main.ts'], {
    cwd: apiDir,
    env: {
      ...clean,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      JOBS_ENABLED: 'false',
      DEMO_DATA: 'off',
      ROADMAP_V2_URL: 'http://127.0.0.1:9/v2',
      ROADMAP_FEED_URL: 'http://127.0.0.1:9/roadmap',
      FEED_RETRIES: '0',
      STATIC_ROOT: work,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Started['lines'] = [];
  let output = '';
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the api did not start within 90 s:\n${output.slice(-3000)}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      for (const raw of chunk.toString().split('\n')) {
        try {
          const line = JSON.parse(raw) as { level: number; msg: string };
          lines.push(line);
          if (line.msg === 'M365 Radar is listening') {
            clearTimeout(timer);
            resolve();
          }
        } catch {
          // not a log line
        }
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`the api exited with ${code}:\n${output.slice(-3000)}`)));
  });
  await listening;
  return { child, lines, port };
}

async function stop(started: Started): Promise<void> {
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

describe('a production start behind a proxy without an https PUBLIC_URL', () => {
  it('warns loudly: cookies would go without Secure and HSTS would be off', () => {
    const base = { NODE_ENV: 'production', SMTP_URL: 'smtp://x', TRUST_PROXY: '1' };
    expect(securityWarnings(loadConfig({ ...base, PUBLIC_URL: 'http://radar.example.com' }))).toEqual([
      expect.stringMatching(/^TRUST_PROXY is set but PUBLIC_URL is not https \(http:\/\/radar\.example\.com\): session cookies are sent without Secure/),
    ]);
    expect(securityWarnings(loadConfig(base))).toEqual([expect.stringMatching(/PUBLIC_URL is not set/)]);
    expect(securityWarnings(loadConfig({ ...base, PUBLIC_URL: 'https://radar.example.com' }))).toEqual([]);
    expect(securityWarnings(loadConfig({ ...base, TRUST_PROXY: 'false', PUBLIC_URL: 'http://radar.example.com' }))).toEqual([]);
  });
});

describe('impersonation forced on in production', () => {
  it('is named in a warning at every start', async () => {
    const warning = securityWarnings(loadConfig({ NODE_ENV: 'production', IMPERSONATION_ENABLED: 'true', SMTP_URL: 'smtp://x' }));
    expect(warning).toEqual([expect.stringMatching(/^IMPERSONATION_ENABLED is on with NODE_ENV=production/)]);
    expect(securityWarnings(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://x' }))).toEqual([]);
    expect(securityWarnings(loadConfig({ NODE_ENV: 'development', SMTP_URL: 'smtp://x' }))).toEqual([]);

    for (let run = 0; run < 2; run++) {
      const api = await start({ NODE_ENV: 'production', IMPERSONATION_ENABLED: 'true' });
      try {
        const warnings = api.lines.filter((l) => l.level === 40).map((l) => l.msg);
        expect(warnings).toContain(warning[0]);
        expect(warnings.some((w) => w.startsWith('SMTP_URL is not set'))).toBe(true);
        // And the routes are really on.
        const res = await fetch(`http://127.0.0.1:${api.port}/api/dev/current-impersonation`);
        expect(res.status).toBe(401);
      } finally {
        await stop(api);
      }
    }
    expect(fs.statSync(path.join(work, 'data', 'postgres-password')).mode & 0o777).toBe(0o600);
  });

  it('logs no such warning when impersonation is off', async () => {
    const api = await start({ NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      expect(api.lines.filter((l) => l.level === 40).map((l) => l.msg)).not.toContainEqual(expect.stringMatching(/IMPERSONATION/));
      expect((await fetch(`http://127.0.0.1:${api.port}/api/dev/current-impersonation`)).status).toBe(404);
    } finally {
      await stop(api);
    }
  });
});
