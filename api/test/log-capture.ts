import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../src/logger.js';

export interface CapturedLog {
  log: Logger;
  /** Every line as the logger wrote it (what must never carry a secret is checked on these). */
  lines: string[];
  /** The same lines parsed. */
  records: Record<string, unknown>[];
}

/** A real logger (the product's serializers and redaction) whose lines land in memory instead of on stdout. */
export function captureLog(level = 'info', records: Record<string, unknown>[] = []): CapturedLog {
  const lines: string[] = [];
  const log = createLogger(level, {
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) {
          lines.push(line);
          records.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    }),
  });
  return { log, lines, records };
}
