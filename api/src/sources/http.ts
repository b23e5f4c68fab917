import { FeedAbortedError, FeedError, FeedFormatError, FeedHttpError, FeedNetworkError, FeedTimeoutError } from './errors.js';

export interface RetryOptions {
  /** Per attempt, covering headers and body: a server that stalls mid-body is cut off too. */
  timeoutMs: number;
  /** Extra attempts after the first, for transient failures only. */
  retries: number;
  /** First backoff delay; doubles each attempt, with jitter. */
  retryBaseMs?: number;
  /** Ceiling for both backoff and a server's Retry-After, so a hostile header cannot park a sync for hours. */
  maxDelayMs?: number;
  log?: { warn(obj: object, msg: string): void };
  /** Injected in tests that must not wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface TextResponse {
  status: number;
  text: string;
  /** Lower-cased response headers the callers use (etag, last-modified, content-type, location of a redirect). */
  headers: { etag: string | null; lastModified: string | null; contentType: string | null; location: string | null };
}

/** Per call: stops retries and the request in flight (graceful shutdown). */
export interface RequestControl {
  signal?: AbortSignal;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Hides query strings (Graph skip tokens are long and tell the log nothing). */
export const shortUrl = (url: string) => url.split('?')[0];

/** A response body as bytes, refused past `maxBytes` while it arrives (the rest is never read). */
export async function readCapped(response: Response, maxBytes: number, url: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new FeedFormatError(`${shortUrl(url)} is ${declared} bytes, more than the ${maxBytes} allowed`);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > maxBytes) throw new FeedFormatError(`${shortUrl(url)} is more than the ${maxBytes} bytes allowed`);
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts);
}

async function attempt<B>(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  read: (response: Response) => Promise<B>,
): Promise<{ status: number; body: B; headers: TextResponse['headers'] }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
    const headers = {
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      contentType: response.headers.get('content-type'),
      location: response.headers.get('location'),
    };
    // 304 answers a conditional request: nothing changed since the validators we sent. A redirect the caller follows
    // itself (`redirect: 'manual'`) is its answer too.
    const redirect = init.redirect === 'manual' && response.status >= 300 && response.status < 400;
    if (!response.ok && response.status !== 304 && !redirect) {
      await response.body?.cancel().catch(() => undefined);
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      throw new FeedHttpError(`${shortUrl(url)} answered HTTP ${response.status}`, response.status, retryAfter);
    }
    return { status: response.status, body: await read(response), headers };
  } catch (err) {
    if (err instanceof FeedError) throw err;
    if (signal?.aborted) throw new FeedAbortedError(`${shortUrl(url)}: request stopped (${String(signal.reason?.message ?? signal.reason ?? 'aborted')})`);
    const name = (err as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new FeedTimeoutError(`${shortUrl(url)} did not answer within ${timeoutMs} ms`);
    }
    const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
    throw new FeedNetworkError(`${shortUrl(url)} could not be reached: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
}

/**
 * GET/POST with a timeout per attempt and retries of transient failures (network errors, timeouts, 408, 429
 * honouring Retry-After, 5xx) with exponential backoff. Anything else fails at once: a 400 or 403 will not heal.
 * The worst case is bounded: (retries + 1) × timeoutMs plus the backoff delays (each at most maxDelayMs).
 */
export async function fetchTextWithRetry(url: string, init: RequestInit, options: RetryOptions, control: RequestControl = {}): Promise<TextResponse> {
  const { status, body, headers } = await fetchWithRetry(url, init, options, control, (response) => response.text());
  return { status, text: body, headers };
}

/** fetchTextWithRetry for a binary body (an attachment), refused past `maxBytes`. */
export async function fetchBytesWithRetry(
  url: string,
  init: RequestInit,
  options: RetryOptions,
  maxBytes: number,
  control: RequestControl = {},
): Promise<{ status: number; body: Buffer; headers: TextResponse['headers'] }> {
  return fetchWithRetry(url, init, options, control, (response) => readCapped(response, maxBytes, url));
}

/** A response body's chunks as they arrive, refused past `maxBytes` (the rest is never read). */
async function* cappedChunks(response: Response, maxBytes: number, url: string): AsyncGenerator<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new FeedFormatError(`${shortUrl(url)} is ${declared} bytes, more than the ${maxBytes} allowed`);
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > maxBytes) throw new FeedFormatError(`${shortUrl(url)} is more than the ${maxBytes} bytes allowed`);
    yield Buffer.from(chunk);
  }
}

/**
 * fetchBytesWithRetry for a body too large to hold (a report of one row per user): `read` consumes it as it arrives,
 * within the attempt's timeout, refused past `maxBytes`; a retried attempt reads it again from the start. A redirect
 * the caller follows itself (`redirect: 'manual'`) is not read: its `body` is null.
 */
export async function fetchStreamWithRetry<T>(
  url: string,
  init: RequestInit,
  options: RetryOptions,
  maxBytes: number,
  read: (body: AsyncIterable<Buffer>, contentType: string | null) => Promise<T>,
  control: RequestControl = {},
): Promise<{ status: number; body: { value: T } | null; headers: TextResponse['headers'] }> {
  return fetchWithRetry(url, init, options, control, async (response) => {
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    return { value: await read(cappedChunks(response, maxBytes, url), response.headers.get('content-type')) };
  });
}

async function fetchWithRetry<B>(
  url: string,
  init: RequestInit,
  options: RetryOptions,
  control: RequestControl,
  read: (response: Response) => Promise<B>,
): Promise<{ status: number; body: B; headers: TextResponse['headers'] }> {
  const base = options.retryBaseMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;
  for (let attemptNo = 0; ; attemptNo++) {
    try {
      return await attempt(url, init, options.timeoutMs, control.signal, read);
    } catch (err) {
      const feedErr = err as FeedError;
      if (!feedErr.transient || attemptNo >= options.retries) throw feedErr;
      const backoff = base * 2 ** attemptNo * (1 + Math.random() * 0.25);
      const serverAsked = feedErr instanceof FeedHttpError ? feedErr.retryAfterMs : null;
      const delay = Math.min(maxDelay, serverAsked ?? backoff);
      options.log?.warn({ url: shortUrl(url), err: feedErr.message, retryInMs: Math.round(delay) }, 'feed request failed; retrying');
      try {
        await sleep(delay, control.signal);
      } catch {
        throw new FeedAbortedError(`${shortUrl(url)}: retries stopped (${String(control.signal?.reason?.message ?? 'aborted')})`);
      }
    }
  }
}
