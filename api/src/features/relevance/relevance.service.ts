import type { ListRelevance } from '@radar/contracts';
import { relevanceThresholdsOf } from '../../config-relevance.js';
import type { DbOrTx } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { TenantScope } from '../tenants/tenant-audience.js';
import { createRelevanceRepo } from './relevance.repo.js';
import { rowChanges, wantedRows } from './relevance-rows.js';

/** Tenants refreshed in one transaction by `refreshItems`: bounds the rows and locks one transaction holds. */
const TENANTS_PER_TRANSACTION = 25;

export interface RefreshOutcome {
  /** Rows the items should have (per tenant, the roadmap items and the posts it received). */
  rows: number;
  /** Rows written because they were new or said something else. */
  written: number;
  /** Rows deleted: items no longer the tenant's (a tenant removed or disabled). */
  removed: number;
}

/**
 * What reacts, in a refresh's transaction, to the items whose level for some tenant moved (a row new, deleted or of
 * another level): triage moves those items' records' default priority (composed in services.ts, so relevance knows no
 * triage).
 */
export type RelevanceReactor = (tx: DbOrTx, itemIds: readonly number[]) => Promise<void>;

/**
 * Each item's relevance to each tenant (docs/product/relevance.md), kept in item_relevance so the list filters, sorts
 * and shows it without computing: refreshed per tenant after its sync (its usage, licences or posts may have changed)
 * and per item after a sync changed items. A refresh computes every row it covers, writes only those that changed and
 * deletes those no longer wanted, in one transaction under the tenants' relevance locks; a change moves the data
 * version (a trigger), so no cached list hides it.
 */
export function createRelevanceService(deps: Pick<BaseDeps, 'db' | 'clock' | 'log' | 'config'>, opts: { reactors?: readonly RelevanceReactor[] } = {}) {
  const thresholds = relevanceThresholdsOf(deps.config);

  /** Recomputes the rows of `tenantIds` (of `itemIds` only, when given). */
  async function refresh(tenantIds: number[], itemIds: number[] | null): Promise<RefreshOutcome> {
    return deps.db.transaction(async (tx) => {
      const repo = createRelevanceRepo(tx);
      await repo.lockTenants(tenantIds);
      const inputs = await repo.inputsOf(tenantIds);
      const items = inputs.length
        ? await repo.itemsOf(
            inputs.map((t) => t.id),
            itemIds,
          )
        : [];
      const wanted = wantedRows(inputs, items, thresholds);
      const { write, remove, moved } = rowChanges(wanted, await repo.stored(tenantIds, itemIds));
      await repo.write(write, deps.clock.now());
      await repo.remove(remove);
      if (moved.length) for (const react of opts.reactors ?? []) await react(tx, moved);
      return { rows: wanted.length, written: write.length, removed: remove.length };
    });
  }

  const total = (outcomes: RefreshOutcome[]): RefreshOutcome => ({
    rows: outcomes.reduce((n, o) => n + o.rows, 0),
    written: outcomes.reduce((n, o) => n + o.written, 0),
    removed: outcomes.reduce((n, o) => n + o.removed, 0),
  });

  async function refreshItems(itemIds: readonly number[]): Promise<RefreshOutcome> {
    const ids = [...new Set(itemIds)];
    if (!ids.length) return { rows: 0, written: 0, removed: 0 };
    // Removed tenants too: their rows of these items go.
    const tenantIds = await createRelevanceRepo(deps.db).allTenantIds();
    const outcomes: RefreshOutcome[] = [];
    for (let i = 0; i < tenantIds.length; i += TENANTS_PER_TRANSACTION) outcomes.push(await refresh(tenantIds.slice(i, i + TENANTS_PER_TRANSACTION), ids));
    const outcome = total(outcomes);
    if (outcome.written || outcome.removed) deps.log.info({ items: ids.length, ...outcome }, 'relevance of changed items refreshed');
    return outcome;
  }

  return {
    thresholds,

    /**
     * Every row of one tenant: after its sync (its usage and licences may have been read, posts received), and when an
     * admin disables, enables or removes it; a removed or disabled tenant's rows are deleted. Cheap when nothing
     * changed: one read of its items and rows, nothing written.
     */
    async refreshTenant(tenantId: number): Promise<RefreshOutcome> {
      const outcome = await refresh([tenantId], null);
      if (outcome.written || outcome.removed) deps.log.info({ tenantId, ...outcome }, 'relevance refreshed');
      return outcome;
    },

    /** The rows of these items for every tenant: after a sync changed them (new, changed, removed, restored). */
    refreshItems,

    /** The sync's post-commit hook: the changed items' relevance for every tenant. */
    async onItemsChanged(changes: { changes: readonly { itemId: number }[] }): Promise<void> {
      await refreshItems(changes.changes.map((c) => c.itemId));
    },

    /** The list's page map (list-answers.ts `relevanceOf`): none for a guest. */
    async highestOf(itemIds: number[], scope: TenantScope | undefined, among: readonly number[] | undefined): Promise<Map<number, ListRelevance>> {
      if (scope === undefined) return new Map();
      return createRelevanceRepo(deps.db).highestOf(itemIds, scope, among);
    },
  };
}

export type RelevanceService = ReturnType<typeof createRelevanceService>;
