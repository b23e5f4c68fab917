import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { requestChatSummary } from './ai-summary.client.js';
import { extractiveSummary } from './ai-summary.extractive.js';
import { modelOutputToHtml, sanitizeSummary } from './ai-summary.html.js';
import { normalizeReport } from './ai-summary.report.js';

/**
 * POST /api/admin/generate-summary {reportData} (Admin only) -> {summary (sanitised HTML), kind, model}.
 * With AI_BASE_URL set, an OpenAI-compatible chat-completions endpoint writes the briefing; otherwise the server
 * builds a labelled extractive summary from the report itself.
 */
export function createAiSummaryEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [
    implement(endpoints.admin.generateSummary, async ({ body, auth }) => {
      const report = normalizeReport(body.reportData, ctx.publicUrl);
      const { AI_BASE_URL, AI_API_KEY, AI_MODEL, AI_TIMEOUT_MS } = ctx.config;
      if (!AI_BASE_URL) return { summary: sanitizeSummary(extractiveSummary(report)), kind: 'extractive' as const, model: null };
      const started = Date.now();
      const { content, model } = await requestChatSummary({ baseUrl: AI_BASE_URL, apiKey: AI_API_KEY, model: AI_MODEL, timeoutMs: AI_TIMEOUT_MS }, report);
      ctx.log.info({ model, ms: Date.now() - started, by: auth.user.id }, 'AI summary generated');
      return { summary: sanitizeSummary(modelOutputToHtml(content)), kind: 'ai' as const, model };
    }),
  ];
}
