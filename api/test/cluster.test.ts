import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/lib/free-port.js';

/**
 * WEB_CONCURRENCY: the real process (src/main.ts from source) as an operator starts it, without DATABASE_URL: the
 * primary starts the one embedded PostgreSQL and forks HTTP workers that use it; a worker that dies is replaced;
 * SIGTERM stops everything, the database included.
 */
const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-cluster-'));
  // The embedded PostgreSQL's own OS user must reach its data directory (a mkdtemp folder is 0700).
  fs.chmodSync(work, 0o755);
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

/** Every process's parent and command line, from /proc. */
function processTable(): { pid: number; ppid: number; cmd: string }[] {
  const out: { pid: number; ppid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.push({ pid: Number(entry), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), cmd });
    } catch {
      // ended while read
    }
  }
  return out;
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('WEB_CONCURRENCY=2 without DATABASE_URL', () => {
  let primary: ChildProcess;
  let output = '';
  let port: number;

  afterAll(async () => {
    // A failed test: stop it as an operator would (the primary stops its workers and its PostgreSQL).
    if (!primary || primary.exitCode !== null) return;
    const exited = new Promise((resolve) => primary.once('exit', resolve));
    primary.kill('SIGTERM');
    await exited;
  }, 60_000);

  it('starts one embedded PostgreSQL in the primary and answers from two workers', async () => {
    port = await freePort();
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|SMTP_URL|PUBLIC_URL|SESSION_SECRET|NODE_ENV|WEB_CONCURRENCY)$/.test(k)),
    );
    primary = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
      cwd: apiDir,
      env: {
        ...clean,
        NODE_ENV: 'production',
        WEB_CONCURRENCY: '2',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(work, 'data'),
        JOBS_ENABLED: 'false',
        DEMO_DATA: 'off',
        STATIC_ROOT: work,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    primary.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    primary.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await waitFor(
      'the cluster to listen',
      () => (/"workers":2[^\n]*M365 Radar is listening/.test(output) ? true : primary.exitCode !== null ? Promise.reject(new Error(output)) : undefined),
      90_000,
    );

    const children = processTable().filter((p) => p.ppid === primary.pid);
    const workers = children.filter((p) => p.cmd.includes('src/main.ts'));
    expect(workers).toHaveLength(2);
    // The one PostgreSQL server is the primary's; no worker started one.
    const postmasters = processTable().filter((p) => /postgres -D/.test(p.cmd) && p.cmd.includes(path.join(work, 'data')));
    expect(postmasters).toHaveLength(1);
    expect(children.map((c) => c.pid)).toContain(postmasters[0]!.pid);
    for (const worker of workers) expect(processTable().filter((p) => p.ppid === worker.pid && /postgres/.test(p.cmd))).toEqual([]);

    for (let i = 0; i < 6; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/unified/items`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { total: number }).total).toBe(0);
    }
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  }, 120_000);

  it('replaces a worker that dies and stops everything on SIGTERM', async () => {
    const [victim] = processTable().filter((p) => p.ppid === primary.pid && p.cmd.includes('src/main.ts'));
    process.kill(victim!.pid, 'SIGKILL');
    await waitFor('a replacement worker', () => {
      const workers = processTable().filter((p) => p.ppid === primary.pid && p.cmd.includes('src/main.ts') && p.pid !== victim!.pid);
      return workers.length === 2 ? workers : undefined;
    });
    expect(output).toContain('HTTP worker died; starting a new one');
    await waitFor('an answer after the restart', async () =>
      (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200 ? true : undefined,
    );

    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(processTable().filter((p) => /postgres -D/.test(p.cmd) && p.cmd.includes(path.join(work, 'data')))).toEqual([]);
  }, 120_000);
});
