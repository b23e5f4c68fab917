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
    opts.stderr ? pino.destination(2) : undefined,
  );
}
