import { endpoints, healthStatusLabel, type HealthIssueResponse } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../lib/errors.js';
import { sanitizeForOutput } from '../../lib/html.js';
import { toUnifiedItem } from '../items/item-mapper.js';
import { createSourceItemsRepo } from '../items/source-items.repo.js';
import { createChangeHistoryRepo } from '../sync/change-history.repo.js';
import { reportFile, reportInfo } from '../sync/health-reports.repo.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import { createServiceHealthRepo } from './service-health.repo.js';

/**
 * Service Health issues, kept for good: GET /api/service-health/issues/{issueId} answers the issue whether it is open
 * or long resolved (a share link must always resolve), with every post in order, the statuses it went through, the
 * post-incident report when one is kept, the tenants that saw it (of those the caller may see) and the Message Center
 * posts and roadmap items of the same service around the same weeks. An issue only private tenants the caller may not
 * see received is answered 404, as if it did not exist.
 */
export function createServiceHealthEndpoints(ctx: AppContext): EndpointImplementation[] {
  const items = createSourceItemsRepo(ctx.db);
  const health = createServiceHealthRepo(ctx.db);
  const history = createChangeHistoryRepo(ctx.db);

  async function findIssue(issueId: string, auth: RequestAuth | null) {
    const scope = await tenantScopeOf(ctx.db, auth);
    const row = await items.find('health', issueId, scope);
    if (!row) throw new NotFoundError(`Service Health issue ${issueId} not found`);
    return { row, scope };
  }

  return [
    implement(endpoints.serviceHealth.issue, async ({ params, auth }): Promise<HealthIssueResponse> => {
      const { row, scope } = await findIssue(params.issueId, auth);
      const includeNotes = isModeratorOrAdmin(auth);
      const [tenants, steps, report, related] = await Promise.all([
        createTenantsRepo(ctx.db).ofItem(row.id, scope),
        health.statusSteps(row.id),
        reportInfo(ctx.db, row.id),
        health.relatedTo(row, scope),
      ]);
      const raw = (row.raw ?? {}) as { origin?: unknown };
      return {
        ...toUnifiedItem(row, { includeNotes }),
        classification: row.category,
        feature: row.feature,
        featureGroup: row.featureGroup,
        origin: typeof raw.origin === 'string' ? raw.origin : null,
        statusLabel: healthStatusLabel(row.status),
        posts: (row.healthPosts ?? []).map((p) => ({ postedAt: p.postedAt, postType: p.postType, html: sanitizeForOutput(p.html) })),
        statusTimeline: steps.map((s) => ({ status: s.status, label: healthStatusLabel(s.status), at: s.at.toISOString() })),
        report: report
          ? {
              downloadUrl: `/api/service-health/issues/${encodeURIComponent(row.externalId)}/report`,
              contentType: report.contentType,
              size: report.size,
              fetchedAt: report.fetchedAt.toISOString(),
            }
          : null,
        tenants: tenants.map((t) => ({ ...t, firstSeen: t.firstSeen.toISOString(), lastModified: t.lastModified?.toISOString() ?? null })),
        related: related.map((r) => toUnifiedItem(r, { includeNotes })),
      };
    }),
    implement(endpoints.serviceHealth.report, async ({ params, auth, res }) => {
      const { row } = await findIssue(params.issueId, auth);
      const file = await reportFile(ctx.db, row.id);
      if (!file) throw new NotFoundError(`No post-incident report of ${params.issueId} is kept`);
      // Microsoft's document, never rendered as our page: a download with a sandboxing policy.
      const declared = file.contentType?.split(';')[0]?.trim() ?? '';
      const type = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/i.test(declared) ? declared : 'application/octet-stream';
      const extension = /pdf/i.test(type) ? '.pdf' : /word|officedocument/i.test(type) ? '.docx' : '';
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Disposition', `attachment; filename="${row.externalId.replace(/[^A-Za-z0-9]/g, '')}-post-incident-report${extension}"`);
      res.setHeader('Content-Length', String(file.content.length));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'");
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.end(file.content);
    }),
    implement(endpoints.serviceHealth.history, async ({ params, auth }) =>
      history.forItem((await findIssue(params.issueId, auth)).row.id, await tenantScopeOf(ctx.db, auth)),
    ),
  ];
}
