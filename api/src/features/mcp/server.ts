import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type pg from 'pg';
import {
  getItemInput,
  getItemOutput,
  PRODUCT_NAME,
  SOURCE_ITEM_NOUNS,
  type Source,
  releaseCalendarInput,
  releaseCalendarOutput,
  searchItemsInput,
  searchItemsOutput,
  whatChangedInput,
  whatChangedOutput,
} from '@radar/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { ItemWhereFilters, TenantScope } from '../items/item-query.js';
import { createItemsRepo } from '../items/items.repo.js';
import { createSourceItemsRepo } from '../items/source-items.repo.js';
import { tenantStatusFor } from '../items/tenant-status.repo.js';
import { createChangeHistoryRepo } from '../sync/change-history.repo.js';
import type { Clock } from '../../lib/clock.js';
import { htmlToPlainText } from '../../lib/html.js';
import { messageSections } from '../../sources/message-sections.js';
import type { Logger } from '../../logger.js';
import { itemText, toMcpChange, toMcpItem } from './mcp-format.js';
import { createMcpItemsRepo } from './mcp-items.repo.js';
import { mcpRelevanceReader } from './mcp-relevance.js';
import type { UnifiedItemRow } from '../items/item-mapper.js';
import { createServiceHealthRepo } from '../service-health/service-health.repo.js';

export interface McpDeps {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  log: Logger;
  /** Links in answers point here (PUBLIC_URL). */
  publicUrl: string;
  /** Whose Message Center posts the caller may see (undefined: public tenants only, as a guest). */
  tenantScope?: TenantScope;
}

/** A mistake in the request the agent can fix (unknown id, empty range): its message is the tool error. */
class ToolInputError extends Error {}

const SERVER_VERSION = '1.0.0';
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const FILTERS_HELP =
  "Filters are the dashboard list's: search (full text, an exact id ranks first), sources (roadmap, messages, health), products, statuses, " +
  'healthStatus (active, resolved), healthClassifications (incident, advisory), tenants (tenant ids), ' +
  'roadmapStatuses, messageCenterTags, cloudInstances, timeline (1_day, 7days, 30days, 90days), changeTypes (new_7days, changed_30days, …), featured, ' +
  'productFamilies (microsoft365, dynamics365, powerPlatform, other), rollingOut (7days, 30days, 90days: rolling out now or starting within), releaseMoved (7days, 30days), ' +
  'relevance (high, medium, low, unknown: items at one of these levels for one of your tenants; needs an identity). ' +
  'Lists take arrays or comma-separated text.';
/** What relevance means, for the server's instructions and the tools that return items. */
const RELEVANCE_HELP =
  "Each item answered to a signed-in caller carries relevance: { level, tenant, tenantId, reason }, how much it matters to the caller's tenants, " +
  "read from each tenant's own usage reports (active users of the workload the item changes, their share of the licensed users) and licences: " +
  'high, medium, low, or unknown (no usage report covers it, or usage not read yet); the highest among the tenants, with the tenant it is of and the reason in words. ' +
  'null when the item has none for those tenants (Service Health issues, posts they did not receive). It says the workload is used, not the feature.';
/** Relevance is read from the tenants' own usage: without an identity (stdio) it is refused, as the list refuses guests. */
const NO_IDENTITY_RELEVANCE =
  "Sign in to filter or sort by relevance: it is read from your tenants' own usage. Connect to /api/mcp with a personal API token (the stdio server reads as a guest).";

function answer<T extends Record<string, unknown>>(data: T) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(data, null, 2) }], structuredContent: data };
}

function filtersOf<T extends Record<string, unknown>>(input: T, omit: string[]): ItemWhereFilters {
  return Object.fromEntries(Object.entries(input).filter(([k]) => !omit.includes(k))) as ItemWhereFilters;
}

/** `roadmap-123`, `123`, `messages-MC123`, `MC123`, `health-EX123`, `EX123` → source and provider id. */
function parseReference(id: string): { source: Source; externalId: string } {
  const bare = id.trim().replace(/^(roadmap|messages|health)-/i, '');
  if (/^\d+$/.test(bare)) return { source: 'roadmap', externalId: bare };
  return /^mc\d/i.test(bare) ? { source: 'messages', externalId: bare.toUpperCase() } : { source: 'health', externalId: bare.toUpperCase() };
}

/**
 * The M365 Radar MCP server: read-only tools over the same repositories as the HTTP api, with inputs validated by
 * the contracts (`@radar/contracts` mcp.ts, the list's own filter schema). A bad input or an unknown id is a tool
 * error the agent can read and fix; an unexpected failure is logged and reported as a tool error, never a crash.
 * One instance per connection (stdio) or per request (stateless HTTP).
 */
export function createRadarMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: 'm365-radar', title: PRODUCT_NAME, version: SERVER_VERSION },
    {
      instructions:
        `${PRODUCT_NAME} tracks the AI at Work Roadmap (formerly the Microsoft 365 Roadmap: Microsoft 365, Dynamics 365 and Power Platform), the Message Center and Service Health (incidents and advisories, kept for good) with the history of every change. ` +
        'Use search_items to find items, get_item for one item with its change history and linked items, what_changed for ' +
        'changes since a date, and release_calendar for GA months in a range. ' +
        `${RELEVANCE_HELP} To find what matters to the organisation, search_items with relevance: ['high'] or sortField: 'relevance' (most relevant first).`,
    },
  );
  const list = createItemsRepo(deps.pool);
  const sourceItems = createSourceItemsRepo(deps.db);
  const history = createChangeHistoryRepo(deps.db);
  const reads = createMcpItemsRepo(deps.pool);
  const health = createServiceHealthRepo(deps.db);
  const relevance = mcpRelevanceReader(deps.db, deps.tenantScope);
  /**
   * How the rows of one answer become items: each with its relevance for a caller with an identity (read for all the
   * rows at once, among `tenants` when the tool was given some), without for one without.
   */
  const itemsOf = async (rows: readonly UnifiedItemRow[], among?: readonly number[]) => {
    const highest = relevance ? await relevance.highestOf([...new Set(rows.map((row) => row.id))], among) : null;
    return (row: UnifiedItemRow) => toMcpItem(row, deps.publicUrl, highest ? (highest.get(row.id) ?? null) : undefined);
  };
  const refuseWithoutIdentity = (q: { relevance?: readonly string[]; sortField?: string }) => {
    if (!relevance && (q.relevance?.length || q.sortField === 'relevance')) throw new ToolInputError(NO_IDENTITY_RELEVANCE);
  };

  /** Runs a tool; expected mistakes become their message, anything else is logged and reported without internals. */
  const guarded =
    <I, O extends Record<string, unknown>>(name: string, run: (input: I) => Promise<O>) =>
    async (input: I) => {
      try {
        return answer(await run(input));
      } catch (err) {
        if (err instanceof ToolInputError) return { content: [{ type: 'text' as const, text: err.message }], isError: true };
        deps.log.error({ err, tool: name }, 'MCP tool failed');
        return { content: [{ type: 'text' as const, text: `${name} failed on the server; try again later.` }], isError: true };
      }
    };

  server.registerTool(
    'search_items',
    {
      title: 'Search items',
      description: `Search and filter roadmap items, Message Center posts and Service Health issues, newest first (sortField/sortDirection to change; sortField relevance: most relevant to your tenants first, then newest). ${FILTERS_HELP} Paged: page, limit (at most 100). Each item has its relevance (see the server's instructions).`,
      inputSchema: searchItemsInput,
      outputSchema: searchItemsOutput,
      annotations: READ_ONLY,
    },
    guarded('search_items', async (q: z.output<typeof searchItemsInput>) => {
      refuseWithoutIdentity(q);
      const { rows, total, approximate } = await list.list({ ...q, tenantScope: deps.tenantScope }, deps.clock.now());
      return {
        items: rows.map(await itemsOf(rows, q.tenants)),
        total,
        ...(approximate ? { totalApproximate: true } : {}),
        page: q.page,
        totalPages: Math.ceil(total / q.limit),
      };
    }),
  );

  server.registerTool(
    'get_item',
    {
      title: 'Get an item',
      description:
        'One roadmap item (id like 412345), Message Center post (id like MC1000269) or Service Health issue (id like EX1000001): details, full change history (newest first) and linked items; for a post also its body by section (What and Why, Rollout Schedule, Impact, Action Required…), its rollout windows per ring and the status for your org per platform; for an issue every update in order and the posts and roadmap items of its service around its weeks. ' +
        'For a signed-in caller, relevanceByTenant lists its relevance to each of your tenants (level, reason, the workload, active users and their share of the licensed users), most relevant first; item.relevance is the highest.',
      inputSchema: getItemInput,
      outputSchema: getItemOutput,
      annotations: READ_ONLY,
    },
    guarded('get_item', async ({ id }: z.output<typeof getItemInput>) => {
      const ref = parseReference(id);
      const row = await sourceItems.find(ref.source, ref.externalId, deps.tenantScope);
      if (!row) throw new ToolInputError(`No ${SOURCE_ITEM_NOUNS[ref.source]} with id ${ref.externalId}`);
      const [entries, linked, byTenant] = await Promise.all([
        history.forItem(row.id, deps.tenantScope),
        ref.source === 'roadmap'
          ? sourceItems.messagesLinkedTo(row.externalId, deps.tenantScope)
          : ref.source === 'messages'
            ? sourceItems.roadmapLinkedFrom(row.id)
            : // A Service Health issue: the posts and roadmap items of its service around its weeks.
              health.relatedTo(row, deps.tenantScope),
        relevance?.ofItem(row.id),
      ]);
      const item = await itemsOf([row, ...linked]);
      return {
        item: {
          ...item(row),
          description: itemText(row),
          platforms: [...row.platforms],
          cloudInstances: [...row.cloudInstances],
          moreInfoLink: row.moreInfoLink ?? null,
          sections:
            row.source === 'messages' ? messageSections(row.bodyHtml ?? '').map((s) => ({ title: s.title, kind: s.kind, text: htmlToPlainText(s.html) })) : [],
          timing: row.timing ?? [],
          tenantStatus: await tenantStatusFor(deps.db, row, deps.tenantScope),
          posts: (row.healthPosts ?? []).map((p) => ({ date: p.postedAt, text: htmlToPlainText(p.html) })),
        },
        history: entries.map(toMcpChange),
        linkedItems: linked.map(item),
        ...(byTenant ? { relevanceByTenant: byTenant } : {}),
      };
    }),
  );

  server.registerTool(
    'what_changed',
    {
      title: 'What changed',
      description: `Items with recorded changes since a date (new, changed, removed from the feed), most recently changed first, each with its changes in the range (field: from → to). ${FILTERS_HELP}`,
      inputSchema: whatChangedInput,
      outputSchema: whatChangedOutput,
      annotations: READ_ONLY,
    },
    guarded('what_changed', async (input: z.output<typeof whatChangedInput>) => {
      const now = deps.clock.now();
      const since = new Date(input.since);
      const until = input.until ? new Date(input.until) : now;
      if (since >= until) throw new ToolInputError('since must be before until (or before now)');
      refuseWithoutIdentity(input);
      const filters = { ...filtersOf(input, ['since', 'until', 'limit']), tenantScope: deps.tenantScope };
      const found = await reads.changedBetween(filters, now, since, until, input.limit);
      const item = await itemsOf(
        found.items.map((found) => found.row),
        input.tenants,
      );
      return {
        since: since.toISOString(),
        until: until.toISOString(),
        items: found.items.map(({ row, history: entries }) => ({
          item: item(row),
          changes: entries.map((h) => toMcpChange({ ...h, changeDate: h.changeDate.toISOString() })),
        })),
        truncated: found.truncated,
      };
    }),
  );

  server.registerTool(
    'release_calendar',
    {
      title: 'Release calendar',
      description: `Roadmap items whose general availability (GA) month is in a range of months (from, to as 2026-03), soonest first, with their preview month. Microsoft gives GA dates as months. ${FILTERS_HELP}`,
      inputSchema: releaseCalendarInput,
      outputSchema: releaseCalendarOutput,
      annotations: READ_ONLY,
    },
    guarded('release_calendar', async (input: z.output<typeof releaseCalendarInput>) => {
      refuseWithoutIdentity(input);
      const filters = { ...filtersOf(input, ['from', 'to', 'limit']), tenantScope: deps.tenantScope };
      const { rows, truncated } = await reads.gaBetween(filters, deps.clock.now(), input.from, input.to, input.limit);
      const item = await itemsOf(rows, input.tenants);
      return {
        from: input.from,
        to: input.to,
        // gaBetween selects by the GA month, so every row has one.
        items: rows.flatMap((row) => (row.gaMonth ? [{ gaMonth: row.gaMonth, previewMonth: row.previewMonth, item: item(row) }] : [])),
        truncated,
      };
    }),
  );

  return server;
}
