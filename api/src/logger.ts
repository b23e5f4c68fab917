import { pino, type Logger } from 'pino';

export type { Logger };

/** How long a log line may wait in the buffer of standard output when the server is quiet. */
const FLUSH_EVERY_MS = 1000;

/**
 * Standard output written in blocks of at least 4 KB instead of one write system call per line: a line per request
 * (pino-http) made those writes a sixth of a cached list answer's CPU. A quiet server's lines go out within a second
 * (the timer), and pino flushes what is pending when the process exits; a process killed outright (SIGKILL) can
 * lose its last second of lines.
 */
function bufferedStdout() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref();
  return destination;
}

/** `stderr`: log to standard error (the stdio MCP server, whose standard output is the protocol). */
export function createLogger(level: string, opts: { stderr?: boolean } = {}): Logger {
  return pino(
    {
      level,
      base: { service: 'radar-api' },
      redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.code'], censor: '[redacted]' },
    },
    opts.stderr ? pino.destination(2) : bufferedStdout(),
  );
}
