import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, pretty = false): Logger {
  return pino({
    level,
    base: { service: 'radar-api' },
    redact: { paths: ['req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.code'], censor: '[redacted]' },
    ...(pretty ? {} : {}),
  });
}
