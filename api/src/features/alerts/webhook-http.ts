import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookTarget } from './ssrf-guard.js';

/** The most of an answer read (the log keeps its first 500 characters); the rest is discarded. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PostResult {
  status: number;
  /** The start of the answer's body. */
  text: string;
  retryAfter: string | null;
  latencyMs: number;
}

/** A request that got no HTTP answer (refused, reset, TLS failure, timeout). */
export class WebhookNetworkError extends Error {
  override readonly name = 'WebhookNetworkError';
  constructor(
    message: string,
    readonly latencyMs: number,
  ) {
    super(message);
  }
}

/** A lookup that answers the checked address whatever is asked, so the connection goes where the guard looked. */
export function pinnedLookup(target: WebhookTarget): LookupFunction {
  const { address, family } = target.address;
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * POSTs a body to a checked webhook target: connects to the pinned address (TLS still verifies the certificate for
 * the URL's host name), never follows redirects (a redirect could lead past the guard), gives up after `timeoutMs`
 * for the whole exchange (or when `abort` fires: a shutdown past its budget), and reads at most 64 KB of the answer.
 */
export function postToWebhook(
  target: WebhookTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  abort?: AbortSignal,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  const networkError = (err: Error) => new WebhookNetworkError(abort?.aborted ? `aborted: ${abortReason(abort)}` : describe(err, timeoutMs), elapsed());
  return new Promise<PostResult>((resolve, reject) => {
    const req = client.request(
      target.url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'M365-Radar-Alerts/1', ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: pinnedLookup(target),
        signal: abort ? AbortSignal.any([AbortSignal.timeout(timeoutMs), abort]) : AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
            latencyMs: elapsed(),
          });
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_ANSWER_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
          size += chunk.length;
          if (size >= MAX_ANSWER_BYTES) {
            res.destroy();
            finish();
          }
        });
        res.on('end', finish);
        res.on('error', (err) => (size >= MAX_ANSWER_BYTES ? undefined : reject(networkError(err))));
      },
    );
    req.on('error', (err) => reject(networkError(err)));
    req.end(body);
  });
}

function describe(err: Error, timeoutMs: number): string {
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const code = (err as NodeJS.ErrnoException).code;
  return code ? `${code}: ${err.message}` : err.message;
}

function abortReason(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted');
}

/** A GET to a checked target got no usable answer; the message never says why (refused, reset, timed out alike). */
export class CheckedFetchError extends Error {
  override readonly name = 'CheckedFetchError';
}

/**
 * GETs a checked target (an admin-entered URL, e.g. a remote's manifest) like postToWebhook: to the pinned address,
 * no redirects, one deadline for the whole exchange, and at most `maxBytes` read (more is refused, the rest never
 * read). Any failure to get an answer is one message, so the result never tells an open port from a closed one.
 */
export function getFromChecked(target: WebhookTarget, maxBytes: number, timeoutMs: number): Promise<{ status: number; text: string }> {
  const client = target.url.protocol === 'https:' ? https : http;
  const failed = () => new CheckedFetchError(`${target.url.origin} did not answer`);
  return new Promise((resolve, reject) => {
    const req = client.request(
      target.url,
      {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'M365-Radar/1' },
        lookup: pinnedLookup(target),
        signal: AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (res) => {
        const tooLarge = () => new CheckedFetchError(`${target.url.origin} answered more than ${maxBytes} bytes`);
        // A declared length over the cap is refused before a byte of the body is read.
        if (Number(res.headers['content-length']) > maxBytes) {
          res.destroy();
          reject(tooLarge());
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(tooLarge());
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => reject(failed()));
      },
    );
    req.on('error', () => reject(failed()));
    req.end();
  });
}
