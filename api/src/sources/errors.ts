/**
 * Typed failures of the feed clients. Any of them means "this fetch is unusable": the sync records a failed run
 * and changes nothing, so a partial or broken fetch can never mark items as removed.
 */
export class FeedError extends Error {
  override name = 'FeedError';
  /** True when trying again later may succeed (network, timeout, 429, 5xx). */
  readonly transient: boolean = false;
}

/** The payload arrived but is not what the feed sends (not an array, an item without id, a page without value). */
export class FeedFormatError extends FeedError {
  override name = 'FeedFormatError';
}

export class FeedHttpError extends FeedError {
  override name = 'FeedHttpError';
  override readonly transient: boolean;
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.transient = status === 408 || status === 429 || status >= 500;
  }
}

export class FeedNetworkError extends FeedError {
  override name = 'FeedNetworkError';
  override readonly transient = true;
}

export class FeedTimeoutError extends FeedError {
  override name = 'FeedTimeoutError';
  override readonly transient = true;
}

/** Graph credentials are not set: the Message Center sync is reported as not configured, not as failed. */
export class NotConfiguredError extends FeedError {
  override name = 'NotConfiguredError';
}

/** The fetch was stopped on purpose (the process is shutting down): not the feed's fault, nothing was changed. */
export class FeedAbortedError extends FeedError {
  override name = 'FeedAbortedError';
}
