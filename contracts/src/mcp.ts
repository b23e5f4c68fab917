import { z } from './zod.js';
import { HISTORY_CHANGE_TYPES, SOURCES } from './constants.js';
import { relevanceLevel, tenantRelevance } from './item-relevance.js';
import { itemListQuery } from './items.js';
import { featureStatusEntry, SECTION_KINDS, timingWindow } from './message-center.js';

/**
 * Inputs and outputs of the MCP server's tools (`npm run mcp`, `/api/mcp`). The filters are the list's own schema
 * (`itemListQuery`), so every filter the dashboard and the feeds take works for agents too, with the same rules
 * and the same error messages.
 */

/** Most results a tool returns at once: an agent's context is small. */
export const MCP_MAX_RESULTS = 100;

/**
 * The list's filters without paging and sort (tools choose their own order), and without `sinceLastVisit`: that is
 * one signed-in user's dashboard visit, which an agent does not have (what_changed takes an explicit date instead).
 */
export const mcpItemFilters = itemListQuery.omit({ page: true, limit: true, sortField: true, sortDirection: true, sinceLastVisit: true, triage: true });
export type McpItemFilters = z.input<typeof mcpItemFilters>;

/**
 * search_items: the list's query (without `sinceLastVisit`, see above, and without triage: the team's triage is
 * not for agents), with a smaller page.
 */
export const searchItemsInput = itemListQuery
  .omit({ sinceLastVisit: true, triage: true })
  .extend({
    limit: z.coerce.number().int().min(1, 'limit must be 1 or more').max(MCP_MAX_RESULTS, `limit must be at most ${MCP_MAX_RESULTS}`).default(20),
  })
  .refine((q) => q.sortField !== 'due', { path: ['sortField'], message: 'sortField due (triage) is not available to agents' });
export type SearchItemsInput = z.input<typeof searchItemsInput>;

/**
 * `roadmap-123` / `123` (roadmap), `messages-MC123` / `MC123` (Message Center) or `health-EX123` / `EX123` (Service
 * Health: letters then digits, any prefix but MC), as the list and share links name items.
 */
export const itemReference = z
  .string()
  .trim()
  .regex(
    /^((roadmap-)?\d{1,9}|(messages-)?MC\d{1,9}|(health-)?[A-Z]{1,6}\d{1,10})$/i,
    'id must be a roadmap id (e.g. 412345), a Message Center id (e.g. MC1000269) or a Service Health id (e.g. EX1000001)',
  );
export type ItemReference = z.infer<typeof itemReference>;

export const getItemInput = z.object({ id: itemReference });
export type GetItemInput = z.input<typeof getItemInput>;

/** A calendar date or date-time (ISO 8601). */
const isoDay = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'must be an ISO date (2026-02-01) or date-time' });

export const whatChangedInput = mcpItemFilters.extend({
  since: isoDay.describe('Changes recorded at or after this date (ISO date or date-time)'),
  until: isoDay.optional().describe('Changes recorded before this date (default: now)'),
  limit: z.coerce.number().int().min(1, 'limit must be 1 or more').max(MCP_MAX_RESULTS, `limit must be at most ${MCP_MAX_RESULTS}`).default(50),
});
export type WhatChangedInput = z.input<typeof whatChangedInput>;

/** `2026-03` or a date inside the month. */
const month = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])(-\d{2})?$/, 'must be a month (2026-03) or a date (2026-03-15)')
  .transform((v) => v.slice(0, 7));

export const releaseCalendarInput = mcpItemFilters
  .extend({
    from: month.describe('First month of the range (2026-03)'),
    to: month.describe('Last month of the range, inclusive (2026-06)'),
    limit: z.coerce.number().int().min(1, 'limit must be 1 or more').max(500, 'limit must be at most 500').default(200),
  })
  .refine((v) => v.from <= v.to, { path: ['to'], message: 'to must not be before from' });
export type ReleaseCalendarInput = z.input<typeof releaseCalendarInput>;

/**
 * An item's relevance to the caller's tenants, as the list's chip shows it: the highest level among the tenants the
 * caller may see (or those of `tenants`), with the tenant it is of (the first by name among equals) and the reason.
 */
export const mcpRelevance = z.object({
  level: relevanceLevel,
  /** The tenant's name (its id is `tenantId`, as `tenants` takes it). */
  tenant: z.string(),
  tenantId: z.number().int(),
  /** The level in words ("1,240 people used Teams in the last 30 days, 82 % of licensed users"). */
  reason: z.string(),
});
export type McpRelevance = z.infer<typeof mcpRelevance>;

/** An item as a tool answers it: the facts an agent needs, plain text, with links. */
export const mcpItem = z.object({
  id: z.string(),
  source: z.enum(SOURCES),
  title: z.string(),
  status: z.string().nullable(),
  products: z.array(z.string()),
  tags: z.array(z.string()),
  releaseDate: z.string().nullable(),
  previewDate: z.string().nullable(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
  isRemoved: z.boolean(),
  /** Plain text, at most 500 characters. */
  summary: z.string(),
  /** The item in M365 Radar (share link). */
  url: z.string(),
  /** The item at Microsoft (public roadmap page or admin center message). */
  providerUrl: z.string(),
  /**
   * Signed-in callers: the item's relevance to their tenants, null when it has none there (a Service Health issue, a
   * post none of them received, usage not rated yet). Absent without an identity (stdio): relevance is a tenant's own.
   */
  relevance: mcpRelevance.nullable().optional(),
});
export type McpItem = z.infer<typeof mcpItem>;

export const mcpFieldChange = z.object({ field: z.string(), from: z.unknown(), to: z.unknown() });
export type McpFieldChange = z.infer<typeof mcpFieldChange>;

export const searchItemsOutput = z.object({
  items: z.array(mcpItem),
  total: z.number().int(),
  /** Present when `total` is an estimate (a search with more than 1,000 matches). */
  totalApproximate: z.literal(true).optional(),
  page: z.number().int(),
  totalPages: z.number().int(),
});
export type SearchItemsOutput = z.infer<typeof searchItemsOutput>;

export const getItemOutput = z.object({
  item: mcpItem.extend({
    description: z.string(),
    platforms: z.array(z.string()),
    cloudInstances: z.array(z.string()),
    moreInfoLink: z.string().nullable(),
    /** A Message Center post's body by section, as plain text ([] for roadmap items and posts without headings). */
    sections: z.array(z.object({ title: z.string(), kind: z.enum(SECTION_KINDS).nullable(), text: z.string() })),
    /** A post's rollout windows per ring ([] for roadmap items: their timing is releaseDate). */
    timing: z.array(timingWindow),
    /** Where Microsoft says a post's rollout stands for the tenant, per platform. */
    tenantStatus: z.array(featureStatusEntry),
    /** A Service Health issue's updates, oldest first, as plain text ([] for the other sources). */
    posts: z.array(z.object({ date: z.string(), text: z.string() })),
  }),
  history: z.array(z.object({ date: z.string(), type: z.enum(HISTORY_CHANGE_TYPES), changes: z.array(mcpFieldChange) })),
  linkedItems: z.array(mcpItem),
  /**
   * Signed-in callers: the item's relevance to each tenant they may see, most relevant first (what the item dialog
   * lists, GET /api/relevance/{itemType}/{itemId}); [] when it has none. Absent without an identity (stdio).
   */
  relevanceByTenant: z.array(tenantRelevance).optional(),
});
export type GetItemOutput = z.infer<typeof getItemOutput>;

export const whatChangedOutput = z.object({
  since: z.string(),
  until: z.string(),
  items: z.array(
    z.object({ item: mcpItem, changes: z.array(z.object({ date: z.string(), type: z.enum(HISTORY_CHANGE_TYPES), changes: z.array(mcpFieldChange) })) }),
  ),
  /** True when more items changed than `limit`. */
  truncated: z.boolean(),
});
export type WhatChangedOutput = z.infer<typeof whatChangedOutput>;

export const releaseCalendarOutput = z.object({
  from: z.string(),
  to: z.string(),
  items: z.array(z.object({ gaMonth: z.string(), previewMonth: z.string().nullable(), item: mcpItem })),
  truncated: z.boolean(),
});
export type ReleaseCalendarOutput = z.infer<typeof releaseCalendarOutput>;

/** A JSON-RPC 2.0 message or batch, as POSTed to /api/mcp (the MCP SDK checks the rest). */
const jsonRpcMessage = z.looseObject({ jsonrpc: z.literal('2.0', { error: "jsonrpc must be '2.0'" }) });
/** Calls one JSON-RPC batch may carry: each runs real queries, and a batch is one request to every limit. */
export const MCP_MAX_BATCH = 5;

export const mcpRequestBody = z.union(
  [jsonRpcMessage, z.array(jsonRpcMessage).min(1).max(MCP_MAX_BATCH, `A JSON-RPC batch may hold at most ${MCP_MAX_BATCH} messages`)],
  { error: 'The body must be a JSON-RPC 2.0 message ("jsonrpc": "2.0") or a batch of them' },
);
export type McpRequestBody = z.infer<typeof mcpRequestBody>;
