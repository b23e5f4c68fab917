import type { DbOrTx } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { FeedAbortedError } from '../../sources/errors.js';
import type { GraphMessagesClient } from '../../sources/graph-messages.js';
import type { RequestControl } from '../../sources/http.js';
import { storeReport, wantedReports } from './health-reports.repo.js';

/** Largest post-incident report kept (Microsoft's are documents of a few hundred KB). */
export const REPORT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * After a tenant's Service Health sync: the post-incident reports of its issues that Microsoft has published and the
 * product does not keep yet are downloaded and kept for good (Microsoft removes them with the issue). A report Graph
 * does not have yet (404) or that fails is asked for again after the next sync; one failing never stops the others.
 */
export async function downloadMissingReports(
  deps: { db: DbOrTx; client: GraphMessagesClient; log: Logger; now: () => Date; tenantId: number; maxBytes?: number },
  control: RequestControl = {},
): Promise<number> {
  let kept = 0;
  for (const wanted of await wantedReports(deps.db, deps.tenantId)) {
    try {
      const file = await deps.client.downloadIncidentReport(wanted.issueId, deps.maxBytes ?? REPORT_MAX_BYTES, control);
      if (!file) continue;
      await storeReport(deps.db, wanted.itemId, file, deps.now());
      kept++;
    } catch (err) {
      if (err instanceof FeedAbortedError) throw err;
      deps.log.warn({ issue: wanted.issueId, err: (err as Error).message }, 'post-incident report not downloaded; tried again after the next sync');
    }
  }
  if (kept > 0) deps.log.info({ reports: kept }, 'Service Health post-incident reports downloaded');
  return kept;
}
