import http from 'node:http';
import https from 'node:https';
import { checkWebhookUrl, WebhookUrlError, type GuardOptions } from '../alerts/ssrf-guard.js';
import { pinnedLookup } from '../alerts/webhook-http.js';

/** The most of an answer read; trackers answer a task or a page of comments well within it. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** One HTTP answer of a tracker. */
export interface TrackerResponse {
  status: number;
  text: string;
  retryAfter: string | null;
  latencyMs: number;
}

/**
 * A tracker call that did not succeed, classified for the outbox: `retry` for network errors, timeouts, 429 and 5xx
 * (with the tracker's Retry-After, when it sent one); otherwise the call fails at once (a refused credential, a missing
 * project, a bad field). `status` is null when no HTTP answer came.
 */
export class TrackerError extends Error {
  override readonly name = 'TrackerError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly retry: boolean,
    readonly retryAfter: string | null = null,
    readonly latencyMs: number | null = null,
    readonly response = '',
  ) {
    super(message);
  }
}

export interface TrackerHttpOptions {
  /**
   * The SSRF guard for hosts an admin entered; null for the hosts the operator configured (the tenant clouds' Graph
   * and sign-in hosts), which are called as configured.
   */
  guard: GuardOptions | null;
  timeoutMs: number;
  /** Fires when a shutdown is past its budget: the request in flight is cut (and retried later). */
  abort?: AbortSignal;
}

/** Where a request goes: the guard's checked and pinned address, or an operator-configured URL as it is. */
async function targetOf(url: string, guard: GuardOptions | null) {
  if (guard) {
    try {
      const target = await checkWebhookUrl(url, guard);
      return { url: target.url, lookup: pinnedLookup(target) };
    } catch (err) {
      if (err instanceof WebhookUrlError) throw new TrackerError(err.message, null, false);
      throw err;
    }
  }
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TrackerError(`${parsed.protocol} URLs are not called`, null, false);
  return { url: parsed, lookup: undefined };
}

/**
 * A request to a tracker through the SSRF guard of webhooks: https only (unless ALLOW_PRIVATE_WEBHOOKS), every
 * address of the host public, the connection pinned to the checked address, no redirects followed, one deadline for
 * the whole exchange, at most 1 MB of the answer read. The body goes as JSON, or as a form when it is
 * URLSearchParams (OAuth token requests).
 */
export async function trackerRequest(
  opts: TrackerHttpOptions,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<TrackerResponse> {
  const target = await targetOf(url, opts.guard);
  const form = body instanceof URLSearchParams;
  const payload = body === undefined ? undefined : form ? body.toString() : JSON.stringify(body);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<TrackerResponse>((resolve, reject) => {
    const networkError = (err: Error) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      const message = opts.abort?.aborted ? 'aborted: shutting down' : timedOut ? `no answer within ${opts.timeoutMs} ms` : err.message;
      reject(new TrackerError(message, null, true, null, elapsed()));
    };
    const req = client.request(
      target.url,
      {
        method,
        headers: {
          accept: 'application/json',
          'user-agent': 'M365-Radar/1',
          ...(payload !== undefined
            ? { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
          ...headers,
        },
        ...(target.lookup ? { lookup: target.lookup } : {}),
        signal: opts.abort ? AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), opts.abort]) : AbortSignal.timeout(opts.timeoutMs),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_ANSWER_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
            latencyMs: elapsed(),
          }),
        );
        res.on('error', networkError);
      },
    );
    req.on('error', networkError);
    req.end(payload);
  });
}

/**
 * The answer as JSON when it is a success; otherwise a TrackerError saying what went wrong in the tracker's words
 * (Jira's errorMessages and errors, ServiceNow's error.message) beside the status.
 */
export function expectOk<T>(res: TrackerResponse, what: string): T {
  if (res.status >= 200 && res.status < 300) {
    if (!res.text) return undefined as T;
    try {
      return JSON.parse(res.text) as T;
    } catch {
      throw new TrackerError(`${what}: the answer was not JSON`, res.status, false, null, res.latencyMs, res.text.slice(0, 500));
    }
  }
  const said = trackerMessage(res.text);
  const retry = res.status === 429 || res.status >= 500;
  const reason =
    res.status === 401
      ? 'the credentials were refused'
      : res.status === 403
        ? 'the account lacks a permission'
        : res.status === 404
          ? 'not found'
          : res.status === 429
            ? 'too many requests'
            : res.status >= 300 && res.status < 400
              ? 'redirects are not followed: use the final URL'
              : `HTTP ${res.status}`;
  return failWith(new TrackerError(`${what}: ${reason}${said ? ` (${said})` : ''}`, res.status, retry, res.retryAfter, res.latencyMs, res.text.slice(0, 500)));
}

function failWith(err: TrackerError): never {
  throw err;
}

/**
 * The error text a tracker put in its answer, if any: Jira's errorMessages and errors, ServiceNow's and Graph's
 * error.message, an OAuth token endpoint's error_description.
 */
export function trackerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as {
      errorMessages?: string[];
      errors?: Record<string, string>;
      error?: string | { message?: string; detail?: string };
      error_description?: string;
    };
    const parts = [...(body.errorMessages ?? []), ...Object.entries(body.errors ?? {}).map(([k, v]) => `${k}: ${v}`)];
    if (typeof body.error === 'object' && body.error?.message)
      parts.push(body.error.detail ? `${body.error.message}: ${body.error.detail}` : body.error.message);
    if (body.error_description) parts.push(body.error_description);
    else if (typeof body.error === 'string') parts.push(body.error);
    return parts.join('; ').slice(0, 300);
  } catch {
    return '';
  }
}
