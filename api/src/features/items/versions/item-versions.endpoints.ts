import { endpoints, type CompareVersionsResponse, type ItemVersion } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { InputError, NotFoundError } from '../../../lib/errors.js';
import { messageAdapter, roadmapAdapter, type SourceAdapter } from '../../sync/records.js';
import { createSourceItemsRepo } from '../source-items.repo.js';
import { tenantScopeOf } from '../../tenants/tenant-scope.js';
import type { RequestAuth } from '../../../http/auth.js';
import { createChangeHistoryRepo } from '../../sync/change-history.repo.js';
import { currentState, differingFields, rebuildVersions, type RebuiltVersion } from './rebuild.js';
import { boundedWordDiff } from './word-diff.js';

const summary = (v: RebuiltVersion): ItemVersion => ({
  version: v.version,
  changeDate: v.changeDate.toISOString(),
  changeType: v.changeType,
  changedFields: v.changedFields,
  minor: v.minor,
});

/** A `from`/`to` version number that the item does not have: a 400 naming the parameter. */
function checkVersion(name: 'from' | 'to', value: number, latest: number): void {
  if (value > latest) {
    const message = `${name} must be a version of this item (1–${latest})`;
    throw new InputError(`${name}: ${message}`, [{ path: name, message }]);
  }
}

/**
 * Versions of roadmap items and Message Center posts, rebuilt from their change history, and the comparison of any
 * two: the fields that differ (before / after) and a word diff of the description or body.
 */
export function createItemVersionsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const items = createSourceItemsRepo(ctx.db);
  const history = createChangeHistoryRepo(ctx.db);

  async function versionsOf<R>(adapter: SourceAdapter<R>, externalId: string, auth: RequestAuth | null): Promise<RebuiltVersion[]> {
    const scope = await tenantScopeOf(ctx.db, auth);
    const row = await items.find(adapter.itemSource, externalId, scope);
    if (!row) throw new NotFoundError(adapter.itemSource === 'roadmap' ? `Roadmap item ${externalId} not found` : `Message ${externalId} not found`);
    const state = currentState(adapter, row);
    const rows = await history.rowsOf(row.id, scope);
    // Every synced item has its 'new' entry; a row written some other way (an import of old data) is one version.
    if (rows.length === 0) return [{ version: 1, changeDate: row.firstSeenAt, changeType: 'new', changedFields: [], minor: false, state }];
    return rebuildVersions(state, rows);
  }

  async function compare<R>(
    adapter: SourceAdapter<R>,
    externalId: string,
    query: { from?: number; to?: number },
    auth: RequestAuth | null,
  ): Promise<CompareVersionsResponse> {
    const versions = await versionsOf(adapter, externalId, auth);
    const latest = versions.length;
    const to = query.to ?? latest;
    const from = query.from ?? Math.max(1, Math.min(to, latest) - 1);
    checkVersion('from', from, latest);
    checkVersion('to', to, latest);
    // Newest first: version n is at index latest - n.
    const a = versions[latest - from];
    const b = versions[latest - to];
    // checkVersion has kept both within 1..latest.
    if (!a || !b) throw new Error(`version ${from} or ${to} of ${externalId} is missing`);
    const textField = adapter.itemSource === 'roadmap' ? 'description' : 'bodyContent';
    const fields = differingFields(adapter, a.state, b.state);
    return {
      from: summary(a),
      to: summary(b),
      fields,
      wordDiff: fields.some((f) => f.field === textField) ? { field: textField, ...boundedWordDiff(a.state[textField], b.state[textField]) } : null,
    };
  }

  return [
    // Versions are rebuilt from the history on every request (no cache): each counts against the client's budget.
    implement(endpoints.items.roadmapVersions, async ({ params, auth, req }) => {
      await ctx.services.missBudget.charge(req);
      return (await versionsOf(roadmapAdapter, params.itemId, auth)).map(summary);
    }),
    implement(endpoints.items.roadmapCompare, async ({ params, query, auth, req }) => {
      await ctx.services.missBudget.charge(req);
      return compare(roadmapAdapter, params.itemId, query, auth);
    }),
    implement(endpoints.items.messageVersions, async ({ params, auth, req }) => {
      await ctx.services.missBudget.charge(req);
      return (await versionsOf(messageAdapter, params.messageId, auth)).map(summary);
    }),
    implement(endpoints.items.messageCompare, async ({ params, query, auth, req }) => {
      await ctx.services.missBudget.charge(req);
      return compare(messageAdapter, params.messageId, query, auth);
    }),
  ];
}
