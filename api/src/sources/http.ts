import { FeedError, FeedHttpError, FeedNetworkError, FeedTimeoutError } from './errors.js';

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
  sleep?: (ms: number) => Promise<void>;
}

export interface TextResponse {
  status: number;
  text: string;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Hides query strings (Graph skip tokens are long and tell the log nothing). */
const shortUrl = (url: string) => url.split('?')[0];

async function attempt(url: string, init: RequestInit, timeoutMs: number): Promise<TextResponse> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    if (!response.ok) {
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      throw new FeedHttpError(`${shortUrl(url)} answered HTTP ${response.status}`, response.status, retryAfter);
    }
    return { status: response.status, text };
  } catch (err) {
    if (err instanceof FeedError) throw err;
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
 */
export async function fetchTextWithRetry(url: string, init: RequestInit, options: RetryOptions): Promise<TextResponse> {
  const base = options.retryBaseMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;
  for (let attemptNo = 0; ; attemptNo++) {
    try {
      return await attempt(url, init, options.timeoutMs);
    } catch (err) {
      const feedErr = err as FeedError;
      if (!feedErr.transient || attemptNo >= options.retries) throw feedErr;
      const backoff = base * 2 ** attemptNo * (1 + Math.random() * 0.25);
      const serverAsked = feedErr instanceof FeedHttpError ? feedErr.retryAfterMs : null;
      const delay = Math.min(maxDelay, serverAsked ?? backoff);
      options.log?.warn({ url: shortUrl(url), err: feedErr.message, retryInMs: Math.round(delay) }, 'feed request failed; retrying');
      await sleep(delay);
    }
  }
}
