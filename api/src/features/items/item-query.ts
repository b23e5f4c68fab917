import type { TenantScope } from '../tenants/tenant-audience.js';
import { sql, type SQL } from 'drizzle-orm';
import {
  ALWAYS_LICENSED_PRODUCTS,
  CHANGE_TYPE_DAYS,
  LICENCE_KNOWN_PRODUCTS,
  CLOUD_INSTANCES,
  NEW_CHANGE_TYPES,
  RELEASE_MOVED_DAYS,
  ROLLING_OUT_DAYS,
  SOURCES,
  type ChangeTypeOption,
  type ItemListQuery,
} from '@radar/contracts';
import { maxRelevanceSql, relevanceCondition } from './relevance-sql.js';
import { requireLens, type TriageLens } from './triage-lens.js';
import { visibleTenant } from './visible-tenant.js';

export { visibleTenant };

/**
 * SQL for the unified list's filters, search and order (GET /api/unified/items and GET /api/dashboard/export share
 * it, so an export always holds exactly the rows the list counts). Semantics, all combined with AND:
 *
 * - removed items (left the roadmap feed, expired messages) are listed only with includeRemoved, except that an
 *   exact-id search always finds them (a share link to an expired post must resolve) and an open triage view lists
 *   the items of its records whatever became of them;
 * - sources: source ∈ list;
 * - products: the item's products/services overlap the list;
 * - statuses: roadmap status or message category ∈ list (case-insensitive);
 * - timeline (1_day, 7days, 30days, 90days; 'all' = none): last activity (modifiedDate, else createdDate) within N days;
 * - changeTypes: new_N = createdDate within N days; changed_N = a sync recorded a meaningful change within N days
 *   (lastChangedAt within N days and after the item was first seen, so the first import is not a "change") and the
 *   item is not new in that window. A new_* and a changed_* option together mean either (OR);
 * - roadmapStatuses / messageCenterTags: (roadmap AND lower(status) ∈ list) OR (messages AND tags overlap list);
 *   either alone restricts to its source;
 * - cloudInstances: roadmap items whose cloud instances overlap (feed spellings, or the short labels Worldwide…);
 * - featured / moderatorFeatured: true = featured items only; false = no restriction;
 * - releaseMoved (7days, 30days): roadmap items whose GA or preview date, and posts whose rollout timing, moved within
 *   N days;
 * - rollingOut (7days, 30days, 90days): items whose timing (items.timing_start … timing_end: a post's rollout windows, a
 *   roadmap item's GA month) overlaps today … today + N days, i.e. rolling out now or starting within N days;
 * - productFamilies: items with a product in any of the families (items.product_families, kept by the sync from the
 *   product rules and the admins' overrides);
 * - sinceLastVisit: new or changed (or, in the archive, removed) since `visitSince`, the caller's previous dashboard
 *   visit, which the handler resolves: items.last_changed_at is stamped when an item is first seen and at every
 *   recorded change;
 * - search: see `searchPlan`;
 * - healthStatus (active, resolved) / healthClassifications (incident, advisory): Service Health issues open or
 *   resolved, of those classifications; each restricts to that source;
 * - tenants: posts and issues any of these tenants received (of the tenants the caller may see);
 * - licensed: items of products the tenants license (`licensedCondition`);
 * - triage (mine, unassigned, overdue, due-soon, done): items with a triage record the caller may see in that queue
 *   view, as the triage lens the list is given says (items/triage-lens.ts);
 * - relevance (high, medium, low, unknown): items whose relevance to a tenant in scope (those the caller may see, or
 *   of `tenants`) is one of these (items/relevance-sql.ts); a guest's scope has none;
 * - always: the caller's tenant scope (TenantScope): a post or issue of tenants only is listed when one of them is
 *   public or granted to the caller.
 */

type ItemSource = (typeof SOURCES)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
const TIMELINE_DAYS: Record<Exclude<NonNullable<ItemListQuery['timeline']>, 'all'>, number> = { '1_day': 1, '7days': 7, '30days': 30, '90days': 90 };

/** Which tenants' posts the caller may see (features/tenants/tenant-audience.ts). */
export type { TenantScope };

/**
 * The list query as the repo runs it: `sinceLastVisit` comes with the visit it means, a triage view with the user
 * it is for (both resolved per caller).
 */
export type ItemListRequest = ItemListQuery & { visitSince?: Date; tenantScope?: TenantScope; triageUserId?: number };
export type ItemFilters = Omit<ItemListRequest, 'page' | 'limit'>;
/** What chooses the rows (no paging, no order): the feeds and the MCP tools order the rows their own way. */
export type ItemWhereFilters = Omit<ItemFilters, 'sortField' | 'sortDirection'>;

/**
 * Which rows a WHERE clause describes. 'all': the list's rows. Searching, the page is chosen from two branches that
 * together are 'all': 'exactIds' (exact id hits, removed items included) and 'rankWindow' (full-text matches that
 * are not removed, unless includeRemoved), so the rank window walks the partial date index as before. 'counted': the
 * rows of 'all' as the capped count asks for them. Both 'rankWindow' and 'counted' ask for a shared prefix once (see
 * tsQuery's `prefixOnce`); 'all', which the planner's estimate of a total is read from, keeps the query as it is.
 */
export type WherePart = 'all' | 'exactIds' | 'rankWindow' | 'counted';

export interface SearchPlan {
  /** `lower(external_id)` values that count as an exact id hit (ranked first); none for text that cannot be an id. */
  ids: string[];
  /** tsquery text for the complete words (english config), '' when none. */
  words: string;
  /** The last word, matched as a prefix (`:*`) with both english and simple configs. */
  prefix: string;
}

/**
 * Turns the search box text into a safe tsquery: words are the letter/digit runs of the input (so no tsquery
 * operator can be injected), all must match, and the last one is a prefix because the user may still be typing.
 * An exact id (case-insensitive; `123` also finds `MC123`) ranks first. Punctuation-only input gives null: the
 * search is ignored and the list is answered as if none were given.
 */
export function searchPlan(search: string | undefined): SearchPlan | null {
  const text = search?.trim();
  if (!text) return null;
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words?.length) return null;
  const compact = text.toLowerCase().replace(/\s+/g, '');
  // Every id of the feeds has digits (roadmap 313800, MC1143929, Service Health EX1045614): text without any is no id.
  const ids = /\d/.test(compact) ? [compact] : [];
  if (/^\d+$/.test(compact)) ids.push(`mc${compact}`);
  const last = words[words.length - 1] ?? '';
  return { ids, words: words.slice(0, -1).join(' & '), prefix: `${last}:*` };
}

/**
 * The tsquery for a plan; immutable functions over constants, so PostgreSQL folds it once per statement. A last word
 * that English does not index ("in", "only", "the") cannot be required: the other words decide alone ("summaries in"
 * finds "Copilot summaries in mail"), as a stopword between words is left out by to_tsquery itself.
 *
 * `prefixOnce`: when both configurations make the same prefix (most typed prefixes: `leve`, `templat`), it is asked
 * for once. Same matches; the GIN index scan collects the prefix's entries once instead of twice, which makes counting a
 * common search's matches about a third faster. Only where matches alone matter: ts_rank weighs a repeated term, and
 * the planner's estimate of the total (calibrated against the true counts) is made for the query as it is.
 */
export function tsQuery(plan: SearchPlan, prefixOnce = false): SQL {
  const english = sql`to_tsquery('english'::regconfig, ${plan.prefix})`;
  const simple = sql`to_tsquery('simple'::regconfig, ${plan.prefix})`;
  const prefix = prefixOnce ? sql`(CASE WHEN ${english} = ${simple} THEN ${english} ELSE ${english} || ${simple} END)` : sql`(${english} || ${simple})`;
  if (!plan.words) return prefix;
  const words = sql`to_tsquery('english'::regconfig, ${plan.words})`;
  return sql`(CASE WHEN numnode(${english}) = 0 THEN ${words} ELSE (${words} && ${prefix}) END)`;
}

const textArray = (list: string[]) => sql`${sql.param(list)}::text[]`;

function cloudValues(list: string[]): string[] {
  return list.map((v) => {
    const known = CLOUD_INSTANCES.find((c) => c.value.toLowerCase() === v.toLowerCase() || c.label.toLowerCase() === v.toLowerCase());
    return known ? known.value : v;
  });
}

function changeTypeCondition(changeTypes: ChangeTypeOption[], now: Date): SQL | null {
  const parts: SQL[] = [];
  for (const type of changeTypes) {
    const since = new Date(now.getTime() - CHANGE_TYPE_DAYS[type] * DAY_MS);
    if ((NEW_CHANGE_TYPES as readonly string[]).includes(type)) {
      parts.push(sql`items.created_date >= ${since}`);
    } else {
      parts.push(
        sql`(items.last_changed_at >= ${since} AND items.last_changed_at > items.first_seen_at AND (items.created_date IS NULL OR items.created_date < ${since}))`,
      );
    }
  }
  if (!parts.length) return null;
  return parts.length === 1 && parts[0] ? parts[0] : sql`(${sql.join(parts, sql` OR `)})`;
}

/**
 * WHERE clause (without the keyword) for the list's filters at `now`.
 *
 * Source conditions are written once and only where they restrict: `sources` naming one source becomes
 * `source = '…'`, naming both (every source) nothing, and the source test inside a source-specific filter
 * (roadmapStatuses, messageCenterTags, cloudInstances) is dropped when `sources` already implies it, or the whole
 * half when `sources` excludes it. Same rows; but the planner no longer multiplies the selectivity of the same
 * source test twice (which made it expect a tenth of the real matches and pick a bitmap scan + sort over all
 * of them instead of walking the date index), and does not AND in a 30,000–70,000-row bitmap of the
 * (source, external_id) index just to test the source.
 */
export function itemWhere(f: ItemWhereFilters, now: Date, plan: SearchPlan | null, part: WherePart = 'all', lens?: TriageLens): SQL {
  const conds: SQL[] = [];
  const notRemoved = listsRemoved(f, lens) ? null : sql`NOT items.is_removed`;
  const allowed = allowedSources(f);
  const ofSources = sourceIn(sql`items.source`, allowed);
  if (ofSources) conds.push(ofSources);
  /** `cond` for items of `source`, or null when `sources` rules that source out (alone, it is already the condition). */
  const forSource = (source: ItemSource, cond: SQL): SQL | null => {
    if (!allowed.has(source)) return null;
    return allowed.size === 1 ? cond : sql`(items.source = ${source}::item_source AND ${cond})`;
  };
  if (f.products?.length) conds.push(sql`items.products && ${textArray(f.products)}`);
  if (f.statuses?.length) {
    const lowered = f.statuses.map((s) => s.toLowerCase());
    conds.push(sql`(lower(items.status) = ANY(${textArray(lowered)}) OR lower(items.category) = ANY(${textArray(lowered)}))`);
  }
  if (f.timeline && f.timeline !== 'all') {
    const since = new Date(now.getTime() - TIMELINE_DAYS[f.timeline] * DAY_MS);
    conds.push(sql`coalesce(items.modified_date, items.created_date) >= ${since}`);
  }
  const change = f.changeTypes?.length ? changeTypeCondition(f.changeTypes, now) : null;
  if (change) conds.push(change);
  if (f.roadmapStatuses?.length || f.messageCenterTags?.length) {
    const bySource: SQL[] = [];
    if (f.roadmapStatuses?.length) {
      const lowered = f.roadmapStatuses.map((s) => s.toLowerCase());
      const half = forSource('roadmap', sql`lower(items.status) = ANY(${textArray(lowered)})`);
      if (half) bySource.push(half);
    }
    if (f.messageCenterTags?.length) {
      const half = forSource('messages', sql`items.tags && ${textArray(f.messageCenterTags)}`);
      if (half) bySource.push(half);
    }
    if (!bySource.length) conds.push(sql`false`);
    else conds.push(bySource.length === 1 && bySource[0] ? bySource[0] : sql`(${sql.join(bySource, sql` OR `)})`);
  }
  if (f.cloudInstances?.length) {
    conds.push(forSource('roadmap', sql`items.cloud_instances && ${textArray(cloudValues(f.cloudInstances))}`) ?? sql`false`);
  }
  if (f.healthStatus) {
    conds.push(forSource('health', f.healthStatus === 'resolved' ? sql`items.is_resolved` : sql`NOT items.is_resolved`) ?? sql`false`);
  }
  if (f.healthClassifications?.length) {
    conds.push(forSource('health', sql`lower(items.category) = ANY(${textArray(f.healthClassifications.map((c) => c.toLowerCase()))})`) ?? sql`false`);
  }
  if (f.featured || f.moderatorFeatured) conds.push(sql`items.is_featured`);
  if (f.releaseMoved) {
    const since = new Date(now.getTime() - RELEASE_MOVED_DAYS[f.releaseMoved] * DAY_MS);
    conds.push(sql`items.release_moved_at >= ${since}`);
  }
  if (f.rollingOut) {
    const today = now.toISOString().slice(0, 10);
    const until = new Date(now.getTime() + ROLLING_OUT_DAYS[f.rollingOut] * DAY_MS).toISOString().slice(0, 10);
    conds.push(sql`items.timing_start <= ${until}::date AND items.timing_end >= ${today}::date`);
  }
  if (f.productFamilies?.length) conds.push(sql`items.product_families && ${textArray(f.productFamilies)}`);
  const tenants = tenantCondition(f.tenantScope);
  if (tenants) conds.push(tenants);
  if (f.tenants?.length) conds.push(receivedByCondition(f.tenants, f.tenantScope));
  if (f.licensed) conds.push(licensedCondition(f.tenantScope, f.tenants));
  if (f.relevance?.length) conds.push(relevanceCondition(f.relevance, f));
  if (f.triage) {
    if (f.triageUserId === undefined) throw new Error('itemWhere: a triage view needs the user it is for (triageUserId)');
    conds.push(requireLens(lens, 'A triage view').inView({ ...f, triage: f.triage, triageUserId: f.triageUserId }, now));
  }
  if (f.sinceLastVisit) {
    if (!f.visitSince) throw new Error('itemWhere: sinceLastVisit needs the visit it means (visitSince)');
    // Only the archive can hold items removed since then; without it the plain test keeps items_last_changed_idx usable.
    conds.push(
      f.includeRemoved ? sql`(items.last_changed_at >= ${f.visitSince} OR items.removed_at >= ${f.visitSince})` : sql`items.last_changed_at >= ${f.visitSince}`,
    );
  }
  if (!plan) {
    const all = notRemoved ? [notRemoved, ...conds] : conds;
    return all.length ? sql.join(all, sql` AND `) : sql`true`;
  }
  const exact = plan.ids.length ? sql`lower(items.external_id) = ANY(${textArray(plan.ids)})` : null;
  const matches = sql`items.search_vector @@ ${tsQuery(plan, part === 'counted' || part === 'rankWindow')}`;
  const text = notRemoved ? sql`${notRemoved} AND ${matches}` : matches;
  if (part === 'exactIds') conds.push(exact ?? sql`false`);
  else if (part === 'rankWindow' || !exact) conds.push(text);
  else conds.push(sql`(${exact} OR (${text}))`);
  return sql.join(conds, sql` AND `);
}

/**
 * Whether the list shows removed items: on request (`includeRemoved`, the archive), and in a triage view that lists
 * its records' items whatever became of them (TriageLens.listsRemovedItems).
 */
function listsRemoved(f: ItemWhereFilters, lens: TriageLens | undefined): boolean {
  if (f.includeRemoved) return true;
  return f.triage !== undefined && requireLens(lens, 'A triage view').listsRemovedItems(f.triage);
}

/**
 * Posts any of `ids` received, counting only tenants the caller may see: filtering by a tenant one may not see must
 * not reveal which public posts it also received.
 */
function receivedByCondition(ids: readonly number[], scope: TenantScope | undefined): SQL {
  const wanted = sql.param([...ids]);
  if (scope === 'all') return sql`items.tenant_ids && ${wanted}::integer[]`;
  // Of the wanted tenants, those the caller may see: an uncorrelated subquery, computed once per statement.
  return sql`items.tenant_ids && ARRAY(SELECT t.id FROM tenants t WHERE t.id = ANY(${wanted}::integer[]) AND ${visibleTenant(scope)})`;
}

/**
 * "Only products we license": of the tenants the caller may see (or those of the `tenants` filter) whose licences were
 * read, the products any of them licenses (tenants.licensed_products). An item stays when one of its products is
 * licensed, is one every tenant has, or is unknown to the licence table and the admins' overrides (an item without
 * products too): unknown is
 * never taken for "not licensed". With no licences read at all the filter keeps everything.
 */
function licensedCondition(scope: TenantScope | undefined, among: readonly number[] | undefined): SQL {
  const tenants = sql`t.licensed_products IS NOT NULL AND t.removed_at IS NULL${scope === 'all' ? sql`` : sql` AND ${visibleTenant(scope)}`}${
    among?.length ? sql` AND t.id = ANY(${sql.param([...among])}::integer[])` : sql``
  }`;
  return sql`(NOT EXISTS (SELECT 1 FROM tenants t WHERE ${tenants})
    OR items.products && ARRAY(SELECT DISTINCT p FROM tenants t CROSS JOIN unnest(t.licensed_products) AS p WHERE ${tenants})
    OR items.products && ${textArray([...ALWAYS_LICENSED_PRODUCTS])}
    OR items.products = '{}'::text[]
    OR NOT (items.products <@ (${textArray([...LICENCE_KNOWN_PRODUCTS])} || ARRAY(SELECT m.source_product FROM product_mappings m WHERE m.licence_plans IS NOT NULL))))`;
}

/** Who may see a post of tenants (TenantScope); null when the caller sees every tenant. */
export function tenantCondition(scope: TenantScope | undefined): SQL | null {
  if (scope === 'all') return null;
  // The tenants the caller may see are a handful: read once per statement (an InitPlan), then each row is one array
  // overlap. A subquery per row (EXISTS … WHERE t.id = ANY(items.tenant_ids)) cost a tenants lookup for every row a
  // count walks: 400,000 buffers and ~360 ms for the guest's total at 100,000 items (docs/benchmarks.md).
  return sql`(items.tenant_ids = '{}'::integer[] OR items.tenant_ids && ARRAY(SELECT t.id FROM tenants t WHERE ${visibleTenant(scope)}))`;
}

/** The sources the list's `sources` allows (none named: all). */
function allowedSources(f: Pick<ItemWhereFilters, 'sources'>): Set<ItemSource> {
  return new Set<ItemSource>(f.sources?.length ? (f.sources as ItemSource[]) : SOURCES);
}

/** `column` (an item_source) restricted to `allowed`: null when every source is allowed. */
function sourceIn(column: SQL, allowed: Set<ItemSource>): SQL | null {
  const only = allowed.size === 1 ? ([...allowed][0] ?? null) : null;
  if (only) return sql`${column} = ${only}::item_source`;
  // Some sources but not all (two of the three): the list names them.
  return allowed.size < SOURCES.length ? sql`${column} = ANY(${sql.param([...allowed])}::item_source[])` : null;
}

/**
 * The list's `sources` as a condition on another table's copy of an item's source (`column`, an item_source); null
 * when every source is allowed. A triage queue tests its records' own copy, without reading their items.
 */
export function sourcesCondition(column: SQL, f: Pick<ItemWhereFilters, 'sources'>): SQL | null {
  return sourceIn(column, allowedSources(f));
}

/** What decides the due sort: the caller's tenants and, in a triage view, the view. */
export type DueSortFilters = Pick<ItemFilters, 'tenantScope' | 'triage' | 'triageUserId' | 'includeRemoved'>;
/** What decides a sort: the due sort's, and the `tenants` filter (whose relevance the relevance sort reads). */
type SortFilters = DueSortFilters & Pick<ItemFilters, 'tenants'>;

/**
 * The sort columns before the id tie-breaker, each with its direction; `alias` names them in the search page's
 * candidate list. Dates follow the (date DESC NULLS LAST, id DESC NULLS LAST) indexes in both directions; the timing
 * of change puts items without one last either way (a list sorted by "soonest" starts with the soonest, not with
 * every item that has no date).
 */
export function sortKeys(
  f: Pick<ItemFilters, 'sortField' | 'sortDirection'> & SortFilters,
  now: Date,
  lens?: TriageLens,
): { column: SQL; alias: SQL; direction: SQL }[] {
  const dir = sortDirectionSql(f);
  if (f.sortField === 'modifiedDate') return [{ column: sql`items.modified_date`, alias: sql.raw('sort_at'), direction: dir }];
  const created = { column: sql`items.created_date`, alias: sql.raw('sort_at'), direction: dir };
  // Most slipped first: date moves (GA + preview), then newest (the items_release_moves_idx order).
  if (f.sortField === 'releaseMoves') return [{ column: sql`items.release_moves`, alias: sql.raw('sort_moves'), direction: dir }, created];
  // Due dates tie often: the item id breaks ties, so a view's page can be chosen from the triage records alone.
  if (f.sortField === 'due') return [{ column: requireLens(lens, 'The due sort').nearestDue(f, now), alias: sql.raw('sort_due'), direction: nullsLastSql(f) }];
  if (f.sortField === 'timing') return [{ column: sql`items.timing_start`, alias: sql.raw('sort_timing'), direction: nullsLastSql(f) }, created];
  // Most relevant first among the tenants in scope, then newest; items without any relevance there last either way.
  if (f.sortField === 'relevance') return [{ column: maxRelevanceSql(f), alias: sql.raw('sort_relevance'), direction: nullsLastSql(f) }, created];
  return [created];
}

export function sortDirectionSql(f: Pick<ItemFilters, 'sortDirection'>): SQL {
  return f.sortDirection === 'asc' ? sql`ASC NULLS FIRST` : sql`DESC NULLS LAST`;
}

/** The direction of a key whose missing values come last in both directions (the due date, the timing of change). */
export function nullsLastSql(f: Pick<ItemFilters, 'sortDirection'>): SQL {
  return f.sortDirection === 'asc' ? sql`ASC NULLS LAST` : sql`DESC NULLS LAST`;
}

/**
 * ORDER BY (without the keyword). Searching: exact id first, then relevance (title and id weigh more than body),
 * then the chosen sort. Otherwise the chosen sort with id as tie-breaker, in the null ordering of the indexes so
 * the (date DESC NULLS LAST, id DESC NULLS LAST) indexes serve both directions.
 */
export function itemOrder(f: Pick<ItemFilters, 'sortField' | 'sortDirection'> & SortFilters, plan: SearchPlan | null, now: Date, lens?: TriageLens): SQL {
  // Matches the (… DESC NULLS LAST, id DESC NULLS LAST) indexes forwards and backwards.
  const dir = sortDirectionSql(f);
  const sort = sql.join([...sortKeys(f, now, lens).map((k) => sql`${k.column} ${k.direction}`), sql`items.id ${dir}`], sql`, `);
  if (!plan) return sort;
  const rank = sql`ts_rank(items.search_vector, ${tsQuery(plan)}) DESC, ${sort}`;
  return plan.ids.length ? sql`(lower(items.external_id) = ANY(${textArray(plan.ids)})) DESC, ${rank}` : rank;
}
