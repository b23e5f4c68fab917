import type { Request, Response } from 'express';
import type { AppContext } from '../../app-context.js';
import { clientAddressKey } from '../../http/client-address.js';
import { createExportLimiter, writeWithStallGuard } from './export-guard.js';
import type { ItemFilters } from './item-query.js';
import { csvStream, exportFileName, type ExportMemberColumns, type ExportRelevance } from './items.export.js';
import { createTriageRepo } from '../triage/triage.repo.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import type { ItemsRepo } from './items.repo.js';

/** A stalled download's transaction outlives the api's own cut by this much before PostgreSQL ends it itself. */
const SERVER_BACKSTOP_MS = 10_000;

/**
 * GET /api/dashboard/export: the list's filters as CSV, streamed from a cursor. Limited per client (an IPv6 /64 is
 * one) and in total, with a slot guests cannot take (429 / 503); cut when the client stops reading for
 * EXPORT_IDLE_TIMEOUT_MS or when it runs longer than EXPORT_MAX_DURATION_MS (export-guard.ts). A signed-in caller's
 * file adds each item's relevance and triage (items.export.ts); a guest's has neither.
 */
export function createExportWriter(ctx: AppContext, repo: ItemsRepo) {
  const { config } = ctx;
  const limiter = createExportLimiter({ perClient: config.EXPORT_MAX_PER_CLIENT, total: config.EXPORT_MAX_CONCURRENT });
  return async (filters: ItemFilters, now: Date, req: Request, res: Response, signedIn = false): Promise<void> => {
    // The same client key as the sign-in limits: an IPv6 /64 is one client.
    const release = limiter.acquire(clientAddressKey(req.ip ?? req.socket.remoteAddress) ?? 'unknown', signedIn);
    // Names of the tenants the caller may see, for the Tenants column, and for a signed-in caller how many of them
    // are live: with several, a relevance reason names its tenant (both read before the first byte is written).
    let tenantNames: Map<number, string>;
    let severalTenants = false;
    try {
      const tenants = createTenantsRepo(ctx.db);
      const [named, live] = await Promise.all([
        tenants.visible(filters.tenantScope, { includeRemoved: true }),
        signedIn ? tenants.visible(filters.tenantScope) : Promise.resolve([]),
      ]);
      tenantNames = new Map(named.map((t) => [t.id, t.name]));
      severalTenants = live.length > 1;
    } catch (err) {
      release();
      throw err;
    }
    res.once('close', release);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(now)}"`);
    // no-transform: proxies and any compression middleware leave the stream as it is (see writeWithStallGuard).
    res.setHeader('Cache-Control', 'no-store, no-transform');
    const rows = repo.streamAll(filters, now, { idleInTransactionMs: config.EXPORT_IDLE_TIMEOUT_MS + SERVER_BACKSTOP_MS });
    const triage = createTriageRepo(ctx.db);
    // Relevance as the list's chip shows it: the highest among the tenants in scope (those of `tenants=` when given).
    const relevanceOf = async (ids: number[]) => {
      const out = new Map<number, ExportRelevance>();
      for (const [id, r] of await ctx.services.relevance.highestOf(ids, filters.tenantScope, filters.tenants)) {
        out.set(id, { level: r.level, reason: r.reason, tenantName: severalTenants ? (tenantNames.get(r.tenantId) ?? null) : null });
      }
      return out;
    };
    const member: ExportMemberColumns | undefined = signedIn ? { relevanceOf, triageOf: (ids) => triage.ofItems(ids, filters.tenantScope) } : undefined;
    const outcome = await writeWithStallGuard(csvStream(rows, tenantNames, member), res, config.EXPORT_IDLE_TIMEOUT_MS, config.EXPORT_MAX_DURATION_MS);
    if (outcome === 'stalled') {
      req.log.warn({ idleTimeoutMs: config.EXPORT_IDLE_TIMEOUT_MS }, 'export cut: the client stopped reading; its database connection is released');
    }
    if (outcome === 'too-long') {
      req.log.warn(
        { maxDurationMs: config.EXPORT_MAX_DURATION_MS },
        'export cut: it ran longer than EXPORT_MAX_DURATION_MS; its database connection is released',
      );
    }
  };
}
