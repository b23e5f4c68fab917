/**
 * `npm run bench`: runs every bench/*.bench.ts (each default-exports an async function returning its section) and
 * writes the results into docs/benchmarks.md, one section per benchmark file, replacing that file's previous
 * section and keeping the others.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A benchmark file default-exports one of these; `run` returns the section's markdown body (numbers, targets, pass/fail). */
export interface Bench {
  title: string;
  run(): Promise<string>;
}

export interface BenchMeasure {
  name: string;
  ms: number;
  targetMs: number;
  note?: string;
}

/** A results table for time-with-target measures (shared helper for bench files). */
export function measuresTable(measures: BenchMeasure[]): string {
  const rows = measures.map(
    (m) =>
      `| ${m.name} | ${(m.ms / 1000).toFixed(2)} s | < ${(m.targetMs / 1000).toFixed(0)} s | ${m.ms < m.targetMs ? 'pass' : '**FAIL**'} | ${m.note ?? ''} |`,
  );
  return ['| measure | time | target | result | note |', '|---|---:|---:|---|---|', ...rows].join('\n');
}

/**
 * Clean-ups to run if the bench is interrupted (Ctrl-C, SIGTERM): benches register one while they own a database
 * server or a temporary directory, and remove it (the returned function) once they have cleaned up themselves.
 */
const interruptHandlers = new Set<() => Promise<void> | void>();
export function onInterrupt(handler: () => Promise<void> | void): () => void {
  interruptHandlers.add(handler);
  return () => interruptHandlers.delete(handler);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: cleaning up\n`);
    void Promise.allSettled([...interruptHandlers].map(async (h) => h())).then(() => process.exit(130));
  });
}

const here = path.dirname(fileURLToPath(import.meta.url));
const docPath = path.resolve(here, '../../docs/benchmarks.md');

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

function render(file: string, title: string, body: string): string {
  return [`<!-- bench:${file} -->`, `## ${title}`, '', `Run ${new Date().toISOString()} on ${machine()}.`, '', body.trim(), `<!-- /bench:${file} -->`].join(
    '\n',
  );
}

async function main() {
  const only = process.argv[2];
  const files = fs
    .readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
    .sort();
  if (!files.length) throw new Error(`no bench/*.bench.ts matches "${only}"`);
  let doc = fs.existsSync(docPath)
    ? fs.readFileSync(docPath, 'utf8')
    : '# Benchmarks\n\nWritten by `npm run bench` (api/bench/run.ts). Each section is replaced when its benchmark runs again.\n';
  for (const file of files) {
    const bench = ((await import(pathToFileURL(path.join(here, file)).href)) as { default: Bench }).default;
    process.stdout.write(`running ${file}: ${bench.title}\n`);
    const body = await bench.run();
    process.stdout.write(`${body}\n\n`);
    const block = render(file, bench.title, body);
    const marker = file.replace(/\./g, '\\.');
    const re = new RegExp(`<!-- bench:${marker} -->[\\s\\S]*?<!-- /bench:${marker} -->`);
    doc = re.test(doc) ? doc.replace(re, () => block) : `${doc.trimEnd()}\n\n${block}\n`;
  }
  fs.mkdirSync(path.dirname(docPath), { recursive: true });
  fs.writeFileSync(docPath, doc);
  process.stdout.write(`results written to ${path.relative(process.cwd(), docPath)}\n`);
  process.exit(0);
}

// Only as the entry point: tools such as bench/trace-page.ts import this module's helpers.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  });
}
