import type { Response } from 'express';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimitError, ServiceUnavailableError } from '../../lib/errors.js';

/**
 * Guards for the CSV export. Each download holds a pooled connection (a server-side cursor) for as long as it lasts,
 * so slow or stalled clients could otherwise hold every connection while the rest of the api waits.
 */

export interface ExportLimits {
  /** EXPORT_MAX_PER_CLIENT: concurrent downloads per client (an IPv6 /64 is one client, as for sign-in). */
  perClient: number;
  /** EXPORT_MAX_CONCURRENT: concurrent downloads in this process (kept below the pool size by config.ts). */
  total: number;
}

/**
 * The downloads guests may hold at once: all but one of the slots (at least one), so a signed-in user can always
 * start an export however many guests are downloading.
 */
export const guestSlots = (total: number) => Math.max(1, total - 1);

/** Counts running exports per client and in total; `acquire` throws when a limit is reached. */
export function createExportLimiter(limits: ExportLimits) {
  const byClient = new Map<string, number>();
  let total = 0;
  let guests = 0;
  return {
    /**
     * Takes a slot for `client` (the request's client key) or throws 429 / 503; guests get at most `guestSlots` of the
     * slots. Call the returned function once, when done.
     */
    acquire(client: string, signedIn = false): () => void {
      const mine = byClient.get(client) ?? 0;
      if (mine >= limits.perClient) {
        throw new RateLimitError(
          `You already have ${mine} export${mine === 1 ? '' : 's'} running; wait for ${mine === 1 ? 'it' : 'one'} to finish before starting another`,
        );
      }
      if (total >= limits.total || (!signedIn && guests >= guestSlots(limits.total))) {
        throw new ServiceUnavailableError('The server is busy with other exports; please try again in a minute');
      }
      byClient.set(client, mine + 1);
      total++;
      if (!signedIn) guests++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        if (!signedIn) guests--;
        const left = (byClient.get(client) ?? 1) - 1;
        if (left > 0) byClient.set(client, left);
        else byClient.delete(client);
      };
    },
    get running() {
      return total;
    },
  };
}

export type ExportOutcome = 'finished' | 'stalled' | 'closed' | 'too-long';

/**
 * Copies `source` to the response with backpressure, and cuts a download whose client stopped reading: when a write
 * is refused (the socket's buffers are full) and no 'drain' follows within `idleTimeoutMs`, the response is destroyed.
 * A download still running after `maxDurationMs` (0: no cap) is cut too ('too-long').
 * Leaving the loop destroys `source`, which ends the cursor's transaction and returns its connection to the pool.
 *
 * Only writes that wait count: a slow database query is not a stall. The check sits on the response's own
 * write/drain contract, which a compression middleware in front keeps too (it returns false and re-emits 'drain'
 * from its compressor); but the export is sent with `Cache-Control: no-transform`, so such a middleware leaves it
 * uncompressed: compressing a 100,000-row download on the fly would cost CPU per request and hide the socket's
 * backpressure behind the compressor's buffer.
 */
export async function writeWithStallGuard(source: Readable, res: Response, idleTimeoutMs: number, maxDurationMs = 0): Promise<ExportOutcome> {
  const gone = new AbortController();
  const onClose = () => gone.abort();
  res.once('close', onClose);
  // Past the total time cap the download is cut, however steadily the client reads (a slow reader holds a connection).
  let tooLong = false;
  const cap =
    maxDurationMs > 0
      ? setTimeout(() => {
          tooLong = true;
          res.destroy();
        }, maxDurationMs)
      : undefined;
  try {
    for await (const chunk of source) {
      if (tooLong) return 'too-long';
      if (res.destroyed) return 'closed';
      if (res.write(chunk)) continue;
      const wait = new AbortController();
      const signal = AbortSignal.any([wait.signal, gone.signal]);
      const outcome = await Promise.race([
        once(res, 'drain', { signal }).then(() => 'drained' as const),
        sleep(idleTimeoutMs, 'stalled' as const, { signal }),
      ]).catch(() => 'closed' as const);
      wait.abort();
      if (tooLong) return 'too-long';
      if (outcome === 'closed') return 'closed';
      if (outcome === 'stalled') {
        res.destroy();
        return 'stalled';
      }
    }
    if (tooLong) return 'too-long';
    if (res.destroyed) return 'closed';
    res.end();
    return 'finished';
  } finally {
    clearTimeout(cap);
    res.removeListener('close', onClose);
    source.destroy();
  }
}
