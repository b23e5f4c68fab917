import { pino, stdSerializers, type Logger } from 'pino';

export type { Logger };

/**
 * Keys that hold live connection objects rather than facts about an error. pg-pool attaches the whole client to an
 * idle client's error (`err.client`): serialised, that is the connection parameters (password included), the
 * backend's process id and its cancel key. Sockets and agents are as bad and as long.
 */
const CONNECTION_KEYS = new Set(['client', 'connection', 'pool', '_pool', 'socket', '_socket', 'agent', 'stream']);
const CONNECTION_CLASSES = /^(Client|Connection|Pool|BoundPool|PoolClient|Socket|TLSSocket|Agent|NodePgDatabase|NodePgSession)$/;

function isConnectionObject(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const name = (value as object).constructor?.name ?? '';
  return CONNECTION_CLASSES.test(name);
}

/** Drops connection objects anywhere in a serialised error (its cause chain and aggregated errors included). */
function scrub(value: unknown, depth: number): unknown {
  if (depth > 6 || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (CONNECTION_KEYS.has(key) || isConnectionObject(v)) continue;
    out[key] = scrub(v, depth + 1);
  }
  return out;
}

/** pino's error serializer (type, message, stack, cause chain, own fields) without any database client or socket. */
export function safeErrorSerializer(err: unknown): unknown {
  if (!(err instanceof Error)) return scrub(err, 0);
  return scrub(stdSerializers.errWithCause(err), 0);
}

export const logSerializers = { err: safeErrorSerializer, error: safeErrorSerializer };

/** How long a log line may wait in the buffer of standard output when the server is quiet. */
const FLUSH_EVERY_MS = 1000;

/**
 * Standard output written in blocks of at least 4 KB instead of one write system call per line: with a line per
 * request (the access log) those writes were a large share of a cached list answer's CPU (docs/benchmarks.md, "Figures behind the code"). A quiet
 * server's lines go out within a second
 * (the timer), and pino flushes what is pending when the process exits; a process killed outright (SIGKILL) can
 * lose its last second of lines.
 */
function bufferedStdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref();
  return destination;
}

/**
 * `stderr`: log to standard error (the stdio MCP server, whose standard output is the protocol); `destination`: any
 * other stream (tests that read the log).
 */
export function createLogger(level: string, opts: { stderr?: boolean; destination?: pino.DestinationStream } = {}): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'radar-api' },
    serializers: logSerializers,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.code', 'err.client', '*.client'],
      censor: '[redacted]',
    },
  };
  return pino(options, opts.destination ?? (opts.stderr ? pino.destination(2) : bufferedStdout()));
}

/**
 * Ends the process once every line logged so far is written, in order. `process.exit` alone writes what is still
 * buffered synchronously, and a block already on its way (the flush timer's asynchronous write) can then land after
 * it: a shutdown's last line ('stopped') was seen before lines logged earlier.
 */
export function exitAfterLogs(log: Logger, code: number): void {
  // Should the flush never call back (standard output gone), the process still ends with this code once idle.
  process.exitCode = code;
  log.flush(() => process.exit(code));
}
