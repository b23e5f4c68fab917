/**
 * Two processes: the cached default list (the list lane's answer, brotli, as a browser asks) served by one api
 * process and by `WEB_CONCURRENCY=2`, at 100,000 items, beside a bare node:http server in one and two processes
 * answering the same bytes (what this machine can do at all).
 *
 * The load comes from wrk (C, one thread) when it is installed: a Node load generator spends about as much CPU per
 * request as the server it loads, so on two cores it leaves one process's worth to the server and two processes
 * cannot show what they serve. Every setup is loaded in turn, three rounds, and each setup's median round reported;
 * the CPU of the server processes and of the generator is read from /proc, so the table shows how much of the two
 * cores each side had.
 *
 * On a machine with four or more cores (and taskset) the servers and PostgreSQL are kept on cores 0 and 1 and wrk on
 * the others; BENCH_SERVER_CPUS and BENCH_LOAD_CPUS (taskset lists) place them by hand. With fewer cores nothing is
 * pinned and the generator shares the servers' cores, so the bench also loads a control: the bare server made to cost
 * what one api process costs per request, in one and two processes. Its ratio is what code of the api's cost whose
 * processes share nothing reaches under the same generator on the same cores, the yardstick for the api's own.
 */
import os from 'node:os';
import zlib from 'node:zlib';
import fs from 'node:fs';
import { allowedCpus, measureCpu, pinProcessTree, postmasterPid, startApi, startBaseline, TASKSET, type ServerProcess } from './api-process.js';
import { withBenchDatabase } from './bench-db.js';
import { runLoad } from './load.js';
import { seedItems, settleAsInstalled } from './seed-items.js';
import type { Bench } from './run.js';
import { runWrk, WRK, wrkAvailable } from './wrk.js';

const ROUNDS = 3;
const SECONDS = 8;
const CONNECTIONS = 32;
const TARGET = 1.6;
const LIST = '/api/unified/items';

/** Where the servers (api, PostgreSQL, the bare servers) and the load generator run, as taskset CPU lists. */
interface Placement {
  server: string;
  load: string;
  /** How it was chosen, for the report. */
  how: string;
}

/** The CPUs a taskset or /proc list names, in order ("1,0" and "0-1" are both [0, 1]). */
const cpusOf = (list: string) =>
  list
    .split(',')
    .flatMap((part) => {
      const [from, to = from] = part.split('-').map(Number) as [number, number?];
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    })
    .sort((a, b) => a - b);

function placement(): Placement | null {
  const server = process.env.BENCH_SERVER_CPUS;
  const load = process.env.BENCH_LOAD_CPUS;
  if (server || load) {
    if (!server || !load) throw new Error('BENCH_SERVER_CPUS and BENCH_LOAD_CPUS go together (taskset lists, e.g. 0,1 and 2,3)');
    if (!fs.existsSync(TASKSET)) throw new Error(`BENCH_SERVER_CPUS needs taskset at ${TASKSET} (util-linux)`);
    return { server, load, how: 'BENCH_SERVER_CPUS / BENCH_LOAD_CPUS' };
  }
  const cores = os.cpus().length;
  if (cores < 4 || !fs.existsSync(TASKSET)) return null;
  return { server: '0,1', load: `2-${cores - 1}`, how: `${cores} cores: two for the servers, the rest for the generator` };
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  /** Cores the server processes kept busy (CPU seconds per second). */
  serverCores: number;
  /** Cores the load generator kept busy. */
  generatorCores: number;
  /** Cores PostgreSQL kept busy (the data-version read behind every cached answer). */
  postgresCores: number;
}

/** One load of the list from wrk for SECONDS, on `cpus` when given. */
async function wrkRound(url: string, cpus?: string): Promise<Omit<Round, 'serverCores' | 'postgresCores'>> {
  const r = await runWrk({ base: new URL(url).origin, paths: [LIST], connections: CONNECTIONS, seconds: SECONDS, headers: { 'Accept-Encoding': 'br' }, cpus });
  if (r.errors > 0) throw new Error(`${url} answered ${r.errors} errors under load`);
  return { rps: r.rps, p50: r.p50, p99: r.p99, generatorCores: r.generatorCores };
}

/** The same load from the bench's own Node generator (a worker thread of this process), when wrk is not installed. */
async function nodeRound(url: string): Promise<Omit<Round, 'serverCores' | 'postgresCores'>> {
  const before = process.cpuUsage();
  const r = await runLoad({
    base: new URL(url).origin,
    paths: [LIST],
    concurrency: CONNECTIONS,
    maxRequests: Number.MAX_SAFE_INTEGER,
    maxMs: SECONDS * 1000,
    headers: { 'Accept-Encoding': 'br' },
  });
  const used = process.cpuUsage(before);
  return { rps: r.rps, p50: r.p50, p99: r.p99, generatorCores: (used.user + used.system) / 1e6 / r.seconds };
}

/**
 * What the target asks of the api when the generator shares its cores: at TARGET × one process's rate, the generator
 * at its measured CPU per request (the two-process rounds') leaves so much CPU a request to two api processes and
 * PostgreSQL (whose share is the api's own version reads); PostgreSQL's share at its measured rate leaves so much to
 * the api alone. Kernel time no process is charged for is left out, so both are the most there could be. Set beside
 * what one process spends a request, they say whether an api scaling perfectly could meet the target here.
 */
function targetArithmetic(one: Round, two: Round): string {
  const cores = os.cpus().length;
  const rate = TARGET * one.rps;
  const micros = (busyCores: number) => (busyCores / rate) * 1e6;
  const generator = (rate * two.generatorCores) / two.rps;
  const postgres = (rate * two.postgresCores) / two.rps;
  const withoutGenerator = micros(cores - generator);
  const forApi = micros(cores - generator - postgres);
  const oneMicros = (one.serverCores / one.rps) * 1e6;
  const pct = (x: number) => `${((100 * x) / oneMicros).toFixed(0)} %`;
  const verdict =
    withoutGenerator < oneMicros
      ? 'Even an api that read nothing from PostgreSQL and whose two processes each answered as cheaply as one could not meet it with the generator on these cores.'
      : forApi < oneMicros
        ? 'Only an api that read nothing from PostgreSQL for a cached answer (its answers could then be stale) and whose two processes each answered as cheaply as one could meet it with the generator on these cores.'
        : 'An api whose two processes each answer as cheaply as one could meet it here.';
  return `The arithmetic of the target here: at ${TARGET}× (${rate.toFixed(0)} req/s) the generator, at its CPU per request in the two-process rounds, would keep ${generator.toFixed(2)} of the ${cores} cores busy, leaving two api processes and PostgreSQL at most ${withoutGenerator.toFixed(1)} µs of CPU a request (${pct(withoutGenerator)} of the ${oneMicros.toFixed(1)} one process spends); PostgreSQL's share at its rate (${postgres.toFixed(2)} cores, the version reads that keep cached answers never stale) leaves the api ${forApi.toFixed(1)} µs (${pct(forApi)}). ${verdict}`;
}

const median = (rounds: Round[]) => [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;

async function run(): Promise<string> {
  const useWrk = wrkAvailable();
  // The Node generator is a thread of this process: it cannot be placed apart, so nothing is pinned without wrk.
  const place = useWrk ? placement() : null;
  const load = (url: string) => (useWrk ? wrkRound(url, place?.load) : nodeRound(url));
  return withBenchDatabase({ poolMax: 4, database: 'radar_processes' }, async (database) => {
    const now = new Date();
    process.stdout.write('  seeding 100,000 items\n');
    await seedItems(database.pool, now);
    await settleAsInstalled(database.db, now);
    await database.pool.query('VACUUM (ANALYZE) items');
    const pgPid = postmasterPid(database.dataDir);
    if (place && pgPid) pinProcessTree(pgPid, place.server);

    const servers: { name: string; server: ServerProcess; rounds: Round[] }[] = [];
    try {
      const one = await startApi({ databaseUrl: database.url });
      servers.push({ name: 'api, one process', server: one, rounds: [] });
      servers.push({ name: 'api, `WEB_CONCURRENCY=2`', server: await startApi({ databaseUrl: database.url, env: { WEB_CONCURRENCY: '2' } }), rounds: [] });
      // The bare servers answer the page compressed as the api compresses its cached copy (brotli quality 4), so about
      // the same bytes go on the wire.
      const body = Buffer.from(await (await fetch(`${one.url}${LIST}`)).arrayBuffer());
      const wire = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
      servers.push({ name: 'bare node:http, one process', server: await startBaseline(wire, 1), rounds: [] });
      servers.push({ name: 'bare node:http, two processes', server: await startBaseline(wire, 2), rounds: [] });
      // Every server process on the servers' CPUs, read back from the kernel: a placement that did not take is not
      // reported as one.
      const checkPinned = (pid: number, name: string) => {
        if (place && cpusOf(allowedCpus(pid)).join() !== cpusOf(place.server).join())
          throw new Error(`${name} was not pinned to ${place.server}: ${allowedCpus(pid)}`);
      };
      const pin = (s: ServerProcess, name: string) => {
        if (!place) return;
        pinProcessTree(s.pid, place.server);
        checkPinned(s.pid, name);
      };
      for (const s of servers) pin(s.server, s.name);
      if (pgPid) checkPinned(pgPid, 'PostgreSQL');
      const placed = place ? allowedCpus(servers[0]!.server.pid) : '';
      const loadAtStart = os.loadavg().slice(0, 2);
      // Warm-up: JIT, the answer cache, connections.
      for (const s of servers) await load(`${s.server.url}${LIST}`);
      /** One load of `s`, with the CPU the server processes and PostgreSQL spent during it. */
      const loaded = async (s: ServerProcess): Promise<Round> => {
        const { result, ...cores } = await measureCpu(s, pgPid, () => load(`${s.url}${LIST}`));
        return { ...result, ...cores };
      };
      const measure = async (s: (typeof servers)[number], round: number) => {
        s.rounds.push(await loaded(s.server));
        process.stdout.write(`  [${s.name}] round ${round + 1}: ${s.rounds.at(-1)!.rps.toFixed(0)} req/s\n`);
      };
      for (let round = 0; round < ROUNDS; round++) for (const s of servers) await measure(s, round);
      // The control: a bare server made to cost, per request, the CPU one api process spent in its rounds, so the same
      // generator on the same cores shows what code of that cost whose processes share nothing reaches with two.
      const costOf = (r: Round) => r.serverCores / r.rps;
      const apiCost = costOf(median(servers[0]!.rounds));
      const bareCost = costOf(median(servers[2]!.rounds));
      // The loop's speed measured at start is not its speed under load: a round of the one-process control measures
      // what its work costs, and the work is scaled to match, until the cost is within 3 % of the api's (at most three
      // trials): a control costing more than the api would favour its own ratio.
      let spinMicros = Math.max(0, (apiCost - bareCost) * 1e6);
      for (let trialRound = 0; trialRound < 3; trialRound++) {
        const trial = await startBaseline(wire, 1, spinMicros);
        try {
          pin(trial, 'the control’s trial');
          await load(`${trial.url}${LIST}`);
          const trialCost = costOf(await loaded(trial));
          process.stdout.write(
            `  [control trial ${trialRound + 1}] ${(trialCost * 1e6).toFixed(1)} µs a request against the api's ${(apiCost * 1e6).toFixed(1)}\n`,
          );
          if (Math.abs(trialCost - apiCost) <= 0.03 * apiCost || trialCost <= bareCost) break;
          spinMicros *= (apiCost - bareCost) / (trialCost - bareCost);
        } finally {
          await trial.stop();
        }
      }
      const controls: typeof servers = [
        { name: 'control: bare server costing the api’s CPU, one process', server: await startBaseline(wire, 1, spinMicros), rounds: [] },
        { name: 'control: bare server costing the api’s CPU, two processes', server: await startBaseline(wire, 2, spinMicros), rounds: [] },
      ];
      servers.push(...controls);
      for (const s of controls) {
        pin(s.server, s.name);
        await load(`${s.server.url}${LIST}`);
      }
      for (let round = 0; round < ROUNDS; round++) for (const s of controls) await measure(s, round);
      const loadAtEnd = os.loadavg().slice(0, 2);
      const [apiOne, apiTwo, bareOne, bareTwo, controlOne, controlTwo] = servers.map((s) => median(s.rounds)) as [Round, Round, Round, Round, Round, Round];
      const controlRatio = controlTwo.rps / controlOne.rps;
      const ratio = apiTwo.rps / apiOne.rps;
      const perCore = (r: Round) => r.rps / Math.max(r.serverCores, 0.01);
      const bareRatio = bareTwo.rps / bareOne.rps;
      // Judged as stated only where two server processes meet two cores and the generator is not among them.
      const serverCpus = place ? cpusOf(place.server).length : 0;
      const verdict = !useWrk
        ? 'not judged (Node generator)'
        : place && serverCpus !== 2
          ? `not judged (the servers had ${serverCpus} CPU${serverCpus === 1 ? '' : 's'}, not two)`
          : ratio >= TARGET
            ? 'pass'
            : '**FAIL**';
      const row = (name: string, r: Round, all: Round[]) =>
        `| ${name} | **${r.rps.toFixed(0)}** (${all.map((x) => x.rps.toFixed(0)).join(', ')}) | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.serverCores.toFixed(2)} | ${r.postgresCores.toFixed(2)} | ${r.generatorCores.toFixed(2)} | ${(r.rps / Math.max(r.serverCores, 0.01)).toFixed(0)} |`;
      return [
        `api/bench/processes.bench.ts. 100,000 seeded items (the items bench's seed), the default list page as the list lane answers it from its cache (brotli, as a browser asks: ${(wire.length / 1024).toFixed(1)} KB). Load: ${useWrk ? `wrk (one thread, ${CONNECTIONS} keep-alive connections)` : `**the bench's Node generator** (wrk not found at ${WRK}: install it, \`apt-get install wrk\`; the Node generator takes about one core, so the two-process figure is not judged)`}, ${SECONDS} s per round, ${ROUNDS} rounds taking turns, median round reported with every round in brackets. CPU from /proc: the server processes (with cluster workers) and the generator, in cores kept busy. ${place ? `Placement (${place.how}): the servers and PostgreSQL on CPUs ${placed}, wrk on ${place.load}.` : 'Placement: none, servers and generator share every core.'} Machine: ${os.cpus().length} cores; load average ${loadAtStart.map((n) => n.toFixed(1)).join(' / ')} at the start, ${loadAtEnd.map((n) => n.toFixed(1)).join(' / ')} at the end.`,
        '',
        '| setup | req/s, median (each round) | p50 ms | p99 ms | server cores busy | postgres cores busy | generator cores busy | req/s per server core |',
        '|---|---:|---:|---:|---:|---:|---:|---:|',
        row(servers[0]!.name, apiOne, servers[0]!.rounds),
        row(servers[1]!.name, apiTwo, servers[1]!.rounds),
        row(servers[2]!.name, bareOne, servers[2]!.rounds),
        row(servers[3]!.name, bareTwo, servers[3]!.rounds),
        row(servers[4]!.name, controlOne, servers[4]!.rounds),
        row(servers[5]!.name, controlTwo, servers[5]!.rounds),
        '',
        `Target: \`WEB_CONCURRENCY=2\` serves ≥ ${TARGET}× one process's rate: **${ratio.toFixed(2)}×** measured — ${verdict}.`,
        '',
        (place
          ? `The servers and PostgreSQL had CPUs ${placed} to themselves (${apiTwo.serverCores.toFixed(2)} cores busy in the two api processes, PostgreSQL ${apiTwo.postgresCores.toFixed(2)}); wrk ran on ${place.load} (${apiTwo.generatorCores.toFixed(2)} cores busy). `
          : `What limits it here: the generator runs on the same ${os.cpus().length} cores (${apiTwo.generatorCores.toFixed(2)} of them during the two-process rounds) and loopback networking costs kernel time no process is charged for, so the two api processes had ${apiTwo.serverCores.toFixed(2)} cores between them, not two, and PostgreSQL ${apiTwo.postgresCores.toFixed(2)} (${apiOne.postgresCores.toFixed(2)} with one process: each process shares one read of the data version behind its cached answers among the requests of two event-loop turns, and two less busy processes have fewer requests a read). (With four or more cores the bench keeps the servers on two of them and the generator on the rest.) ${targetArithmetic(apiOne, apiTwo)} `) +
          `Per server core the two processes served ${perCore(apiTwo).toFixed(0)} req/s against one process's ${perCore(apiOne).toFixed(0)} (${((100 * perCore(apiTwo)) / perCore(apiOne)).toFixed(0)} %${perCore(apiTwo) < perCore(apiOne) ? ': each of two less busy processes answers fewer requests per wake-up and per version read' : ''})` +
          (place
            ? '. '
            : `; on two cores of their own (the load generated elsewhere) that is ${((2 * perCore(apiTwo)) / apiOne.rps).toFixed(2)}× one process — a projection from the measured per-core rate, not a measurement. `) +
          `The bare server shows wrk's own ceiling on this machine (${bareOne.rps.toFixed(0)} and ${bareTwo.rps.toFixed(0)} req/s, ${bareRatio.toFixed(2)}× with a second process): ${(bareOne.rps / apiOne.rps).toFixed(1)}× the api's one-process rate, so wrk sends far more than the api answers; what it takes from the api is CPU, not requests.`,
        '',
        `The control: the bare server made to do more work on every request (a loop of ${spinMicros.toFixed(1)} µs at the speed it ran when the server started, scaled after trial rounds), so that it costs what one api process costs (${(apiCost * 1e6).toFixed(1)} µs of CPU a request in its median round, the bare server ${(bareCost * 1e6).toFixed(1)}; the control ${((controlOne.serverCores / controlOne.rps) * 1e6).toFixed(1)} in its own, loaded after the others' rounds). Under the same generator on the same cores it answered ${controlOne.rps.toFixed(0)} req/s alone and ${controlTwo.rps.toFixed(0)} with a second process: **${controlRatio.toFixed(2)}×**, what code of the api's cost whose processes share nothing reaches here; the api's ${ratio.toFixed(2)}× is ${((100 * ratio) / controlRatio).toFixed(0)} % of it.` +
          (controlRatio < TARGET
            ? ` The control misses ${TARGET}× too in this run: on these cores, with the generator among them, code of the api's cost is at the edge of the target.`
            : ratio < TARGET
              ? ` The control reaches ${TARGET}× here, generator and all: per server core its two processes served ${((100 * perCore(controlTwo)) / perCore(controlOne)).toFixed(0)} % of what its one did (the api's ${((100 * perCore(apiTwo)) / perCore(apiOne)).toFixed(0)} %), and it reads nothing from PostgreSQL, where the api's version reads kept ${apiTwo.postgresCores.toFixed(2)} cores busy.`
              : ''),
      ].join('\n');
    } finally {
      for (const s of servers) await s.server.stop();
    }
  });
}

const bench: Bench = { title: 'Two processes: the cached list with one api process and WEB_CONCURRENCY=2', run };
export default bench;
