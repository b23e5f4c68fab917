import { pino, type Logger } from 'pino';

export type { Logger };

/** `stderr`: log to standard error (the stdio MCP server, whose standard output is the protocol). */
export function createLogger(level: string, opts: { stderr?: boolean } = {}): Logger {
  return pino(
    {
      level,
      base: { service: 'radar-api' },
      redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.code'], censor: '[redacted]' },
    },
    // Standard output is written in blocks of at least 4 KB, not one write per line: a line per request (pino-http)
    // made the write system call a sixth of a cached list answer's CPU. pino flushes the buffer when the process
    // exits; a process killed outright (SIGKILL) can lose its last few lines.
    opts.stderr ? pino.destination(2) : pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}
