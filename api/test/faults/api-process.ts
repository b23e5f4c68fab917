import { afterAll } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/lib/free-port.js';

/**
 * The built api (`node api/dist/main.js`) as a real child process, for the fault suite: its JSON log lines are
 * collected, its exit is observed, and signals are real signals.
 */
export const DIST_MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

export interface LogLine {
  level: number;
  msg: string;
  time: number;
  [key: string]: unknown;
}

export interface ApiProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  logs: LogLine[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * The first log line logged at or after `since` (a Date.now() mark; standard output is block-buffered, so lines
   * logged before a mark can still arrive after it) matching, waiting up to `timeoutMs`.
   */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number, since?: number): Promise<LogLine>;
  /** Log lines at error level or above (pino: 50 error, 60 fatal) logged at or after `since` (a Date.now() mark). */
  errorLogs(since?: number): LogLine[];
  /** Log lines logged at or after `since` (a Date.now() mark). */
  logsSince(since: number): LogLine[];
  /**
   * Sends a signal and waits for the exit, up to `timeoutMs` (by default 30 s past the shutdown budget, 15 s past
   * the api's own hard exit): past it the process is killed and the call fails with its last log lines.
   */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A data directory the embedded PostgreSQL's own user can enter (a mkdtemp folder is 0700). */
export function tempDataDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `radar-fault-${label}-`));
  fs.chmodSync(dir, 0o755);
  return dir;
}

export async function startApi(env: Record<string, string>, opts: { label?: string; readyTimeoutMs?: number } = {}): Promise<ApiProcess> {
  if (!fs.existsSync(DIST_MAIN)) throw new Error(`${DIST_MAIN} is missing: run \`npm run build\` before \`npm run test:faults\``);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [DIST_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      SESSION_SECRET: 'fault-suite-secret-fault-suite-secret-0123456789',
      DEMO_DATA: 'off',
      // The budget of answers no cache gives is off unless a test sets it (it measures it where it matters).
      CACHE_MISS_BUDGET: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let stderr = '';
  let buffered = '';
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ level: 30, msg: line, time: Date.now(), raw: true });
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
    for (const wake of waiters) wake();
  });

  const waitForLog: ApiProcess['waitForLog'] = (match, timeoutMs = 30_000, since = 0) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = logs.find((l) => l.time >= since && match(l));
        if (found) return done(() => resolve(found));
        if (hasExited)
          return done(() => reject(new Error(`api${opts.label ? ` ${opts.label}` : ''} exited before the expected log line; stderr: ${stderr.slice(-2000)}`)));
      };
      const timer = setTimeout(
        () =>
          done(() =>
            reject(
              new Error(
                `no matching log line within ${timeoutMs} ms; last lines: ${logs
                  .slice(-5)
                  .map((l) => l.msg)
                  .join(' | ')}`,
              ),
            ),
          ),
        timeoutMs,
      );
      const done = (fn: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        fn();
      };
      waiters.add(check);
      check();
    });

  // The api leaves by itself at the latest 15 s after its shutdown budget (main.ts's hard exit); 15 s more for a
  // loaded machine.
  const stopTimeoutMs = Number(env.SHUTDOWN_TIMEOUT_MS ?? 20_000) + 30_000;
  const proc: ApiProcess = {
    url,
    port,
    pid: child.pid!,
    child,
    logs,
    stderr: () => stderr,
    exited,
    waitForLog,
    logsSince: (since) => logs.filter((l) => l.time >= since),
    errorLogs: (since = 0) => logs.filter((l) => l.time >= since && l.level >= 50),
    async stop(signal = 'SIGTERM', timeoutMs = stopTimeoutMs) {
      if (!hasExited && process.env.RADAR_FAULT_CPU) process.stdout.write(`api${opts.label ? ` ${opts.label}` : ''} CPU ${cpuSeconds(child.pid!)} s\n`);
      if (!hasExited) child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const outlived = new Promise<'outlived'>((resolve) => (timer = setTimeout(() => resolve('outlived'), timeoutMs)));
      const result = await Promise.race([exited, outlived]).finally(() => clearTimeout(timer));
      if (result !== 'outlived') return result;
      // A process that outlives its own hard-exit timer is a finding, not something to wait out until the test's
      // timeout: say what it last logged and whether its main thread was busy or waiting, then kill it so the
      // cleanups can run.
      const state = await mainThreadState(child.pid!);
      child.kill('SIGKILL');
      await exited;
      const last = logs
        .slice(-15)
        .map((l) => `${l.level} ${l.msg}`)
        .join(' | ');
      throw new Error(
        `api${opts.label ? ` ${opts.label}` : ''} still running ${timeoutMs} ms after ${signal} (${state}); last lines: ${last}; stderr: ${stderr.slice(-1000)}`,
      );
    },
  };
  await waitForLog((l) => l.msg === 'M365 Radar is listening', opts.readyTimeoutMs ?? 60_000);
  return proc;
}

/**
 * What a stuck process's main thread is doing, from /proc: the CPU it used over one second (a thread spinning, in a
 * loop or a chain of promises that never yields to timers, uses about all of it), its state and the kernel function
 * it waits in (a blocked write to a full pipe waits in pipe_write).
 */
async function mainThreadState(pid: number): Promise<string> {
  try {
    const before = Number(cpuSeconds(pid));
    await new Promise((r) => setTimeout(r, 1000));
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const wchan = fs.readFileSync(`/proc/${pid}/wchan`, 'utf8');
    return `main thread: ${(Number(cpuSeconds(pid)) - before).toFixed(2)} CPU s in 1 s, state ${stat[0]}, waiting in ${wchan || '-'}`;
  } catch {
    return 'main thread: not readable';
  }
}

/** A process's CPU seconds so far (user and system, from /proc), for RADAR_FAULT_CPU=1. */
function cpuSeconds(pid: number): string {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / 100).toFixed(1);
  } catch {
    return '?';
  }
}

/** Polls until `check` returns a truthy value. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Registers clean-ups that run after the file's tests (last registered first), whatever happened in them. */
export function cleanupAfterAll(): (cleanup: () => unknown) => void {
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return (cleanup) => void cleanups.push(cleanup);
}
