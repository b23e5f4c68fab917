import type { FeedFormat } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { FeedValidators, RoadmapFeedFormat, SkippedSource } from '../../sources/roadmap-feed.js';
import type { SchemaDrift } from '../../sources/schema-drift.js';

/** A live roadmap answer: the chain's preferred source and the sources that failed before the one read. */
export interface SourceChain {
  preferred: RoadmapFeedFormat;
  skipped: SkippedSource[];
}

/** What a sync run hands its loader: the response its items reflect now (conditional requests) and a stop signal. */
export interface FetchContext {
  previous: FeedValidators | null;
  /** Aborted when the process shuts down: the fetch stops and the run is recorded as interrupted. */
  signal: AbortSignal;
}

export interface FetchedSnapshot<R> {
  kind: 'snapshot';
  format: FeedFormat;
  records: R[];
  /**
   * The snapshot as it came, kept (and parsed again by "Apply anyway") if the guard holds it. A function: only a
   * held snapshot needs it, and for Graph it is built from the messages.
   */
  payload: () => string;
  validators: FeedValidators | null;
  note: string | null;
  /** Completes records of a lossy format from the stored rows (RSS, v2), inside the apply transaction. */
  reconcile?: (tx: DbOrTx, records: R[]) => Promise<R[]>;
  /** Item fields the snapshot carried unexpectedly or lacked (live feeds). */
  drift?: SchemaDrift;
  chain?: SourceChain;
}

export interface FetchedUnchanged {
  kind: 'unchanged';
  format: FeedFormat;
  validators: FeedValidators;
  note: string | null;
  chain?: SourceChain;
}

export type Fetched<R> = FetchedSnapshot<R> | FetchedUnchanged;
export type Loader<R> = (ctx: FetchContext) => Promise<Fetched<R>>;

/** Records that came from elsewhere (a CLI file, the demo set): kept as JSON of the feed's own objects if held. */
export function givenRecords<R extends { raw?: unknown }>(records: R[], format: FeedFormat): Loader<R> {
  return async () => ({ kind: 'snapshot', format, records, payload: () => JSON.stringify(records.map((r) => r.raw ?? null)), validators: null, note: null });
}
