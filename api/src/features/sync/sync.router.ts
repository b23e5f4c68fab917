import { Router, type Response } from 'express';
import { changeHistoryQuery } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import type { SyncResult, SyncService } from '../../sync/sync.service.js';
import { listRuns, toSyncHistoryRecord } from '../../sync/sync-history.repo.js';
import { createChangeHistoryRepo } from './change-history.repo.js';

/**
 * Admin sync triggers and the two admin history lists. A trigger runs the sync and answers with its sync-history
 * record: 200 on success, unchanged or held (the snapshot guard kept it for a decision), 502 when the feed failed
 * (nothing changed), 503 when Graph is not configured, 409 when a sync of that source is already running.
 */
export function createSyncRouter(ctx: AppContext): Router {
  const sync: SyncService = ctx.services.sync;
  const history = createChangeHistoryRepo(ctx.db);
  const router = Router();

  function answer(res: Response, label: string, { run }: SyncResult) {
    if (run.status === 'success') {
      return res.json({ message: `${label} sync finished: ${run.newItems} new, ${run.changedItems} changed, ${run.removedItems} removed, ${run.restoredItems} restored`, sync: run });
    }
    // The run did its job: nothing new, or a suspicious snapshot kept for an admin's decision (see the list).
    if (run.status === 'unchanged') return res.json({ message: `${label} feed unchanged since the last sync: nothing to apply`, sync: run });
    if (run.status === 'held') return res.json({ message: `${label} snapshot held for an admin: ${run.note ?? ''}`.trim(), sync: run });
    const notConfigured = run.status === 'not_configured';
    res.status(notConfigured ? 503 : 502).json({
      error: { name: notConfigured ? 'NotConfiguredError' : 'SyncFailedError', message: run.errorMessage ?? `${label} sync failed` },
      sync: run,
    });
  }

  router.post('/roadmap/sync', requireAdmin, async (req, res) => {
    answer(res, 'Roadmap', await sync.syncRoadmap({ trigger: 'admin', triggeredBy: req.auth!.user.id }));
  });

  router.post('/admin/sync-message-center', requireAdmin, async (req, res) => {
    answer(res, 'Message Center', await sync.syncMessages({ trigger: 'admin', triggeredBy: req.auth!.user.id }));
  });

  router.get('/admin/sync-history', requireAdmin, async (_req, res) => {
    res.json({ syncHistory: (await listRuns(ctx.db, 200)).map(toSyncHistoryRecord) });
  });

  router.get('/admin/change-history', requireAdmin, async (req, res) => {
    res.json(await history.list(parse(changeHistoryQuery, req.query)));
  });

  return router;
}
