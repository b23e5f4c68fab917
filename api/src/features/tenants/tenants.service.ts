import type {
  ConnectionTestResult,
  CreateTenantRequest,
  SyncHistoryRecord,
  TenantRecord,
  TenantSyncResponse,
  TenantUsageState,
  UpdateTenantRequest,
} from '@radar/contracts';
import { createTenantRequest } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { returned } from '../../db/returned.js';
import type { TenantRow } from '../../db/schema/index.js';
import { ConflictError, InputError, NotFoundError } from '../../lib/errors.js';
import { createUsersRepo } from '../admin/users/users.repo.js';
import { createTenantsRepo } from './tenants.repo.js';
import { testTenantConnection } from './tenant-graph.js';
import { openTenantSecret, sealTenantSecret, tenantSecretKey } from './tenant-secret.js';

/** Graph statuses of a service that is working (the rest are shown on the tenant's row). */
const OPERATIONAL = new Set(['serviceOperational', 'serviceRestored', 'falsePositive', 'resolved', 'resolvedExternal', 'postIncidentReviewPublished']);

/** The tenant's usage reports as its row says them: off for want of the permission, failing, read, or not yet. */
function usageOf(row: TenantRow): NonNullable<TenantRecord['usage']> {
  const state: TenantUsageState = row.usagePermissionMissing ? 'permission_missing' : row.usageError ? 'failing' : row.usageAt ? 'read' : 'never';
  return { state, readAt: row.usageAt?.toISOString() ?? null, error: row.usageError };
}

const fieldError = (path: string, message: string) => new InputError(`${path}: ${message}`, [{ path, message }]);

/** Admin → Tenants: add, change, remove, Test connection, Sync now, and who may see the private tenants. */
export function createTenantsService(ctx: Pick<AppContext, 'db' | 'config' | 'clock' | 'log' | 'secret' | 'services'>) {
  const repo = createTenantsRepo(ctx.db);
  const key = tenantSecretKey(ctx.secret);

  async function existing(id: number): Promise<TenantRow> {
    const row = await repo.get(id);
    if (!row) throw new NotFoundError(`There is no tenant with id ${id}`);
    return row;
  }

  /** A second tenant with the same name or directory would make Sync History and the list ambiguous. */
  async function refuseDuplicates(values: { name?: string; directoryId?: string }, exceptId: number | null) {
    if (values.name) {
      const same = await repo.byName(values.name);
      if (same && same.id !== exceptId) throw new ConflictError(`A tenant named ${same.name} already exists`);
    }
    if (values.directoryId) {
      const same = await repo.byDirectoryId(values.directoryId);
      if (same && same.id !== exceptId) throw new ConflictError(`Directory ${values.directoryId} is already added as ${same.name}`);
    }
  }

  async function records(rows: TenantRow[]): Promise<TenantRecord[]> {
    const [counts, runs] = await Promise.all([repo.postCounts(), repo.lastRuns()]);
    const feedOf = (tenantId: number, source: 'message_center' | 'service_health') => {
      const run = runs.get(`${tenantId}:${source}`);
      const failing = run && !['success', 'unchanged', 'held'].includes(run.last.status);
      return {
        lastSyncAt: run?.last.startedAt.toISOString() ?? null,
        status: run?.last.status ?? null,
        error: failing ? (run.last.errorMessage ?? run.last.status) : null,
        lastSuccessAt: run?.lastSuccessAt?.toISOString() ?? null,
      };
    };
    return rows.map((row) => {
      return {
        id: row.id,
        name: row.name,
        tenantId: row.directoryId,
        clientId: row.clientId ?? '',
        cloud: row.cloud as TenantRecord['cloud'],
        visibility: row.visibility as TenantRecord['visibility'],
        enabled: row.enabled,
        secretSet: Boolean(row.clientSecretSealed),
        secretExpiresOn: row.secretExpiresOn,
        fromEnvironment: row.fromEnvironment,
        counts: counts.get(row.id) ?? { livePosts: 0, posts: 0, issues: 0 },
        feeds: { messages: feedOf(row.id, 'message_center'), health: feedOf(row.id, 'service_health') },
        serviceHealth:
          row.healthOverview && row.healthOverviewAt
            ? {
                at: row.healthOverviewAt.toISOString(),
                services: row.healthOverview.length,
                notOperational: row.healthOverview.filter((s) => !OPERATIONAL.has(s.status)),
              }
            : null,
        licences: row.licensedProducts && row.licencesAt ? { at: row.licencesAt.toISOString(), products: row.licensedProducts } : null,
        licencesError: row.licencesError,
        usage: usageOf(row),
        createdAt: row.createdAt.toISOString(),
      };
    });
  }
  const recordOf = async (row: TenantRow) => returned((await records([row]))[0]);

  /**
   * The tenant's relevance after an admin's change: its rows go when it is removed or disabled, and are worked out when
   * it is enabled. A failure is logged (no reader shows a disabled or removed tenant's rows in any case).
   */
  async function refreshRelevance(id: number) {
    try {
      await ctx.services.relevance.refreshTenant(id);
    } catch (err) {
      ctx.log.error({ tenant: id, err }, 'tenant relevance not refreshed');
    }
  }

  return {
    list: async () => records(await repo.list()),

    async create(body: CreateTenantRequest): Promise<TenantRecord> {
      const input = createTenantRequest.parse(body);
      await refuseDuplicates({ name: input.name, directoryId: input.tenantId }, null);
      const now = ctx.clock.now();
      const row = await repo.insert({
        name: input.name,
        directoryId: input.tenantId,
        clientId: input.clientId,
        clientSecretSealed: sealTenantSecret(key, input.clientSecret),
        secretExpiresOn: input.secretExpiresOn ?? null,
        cloud: input.cloud,
        visibility: input.visibility,
        enabled: input.enabled,
        createdAt: now,
        updatedAt: now,
      });
      ctx.log.info({ tenant: row.id, name: row.name, cloud: row.cloud }, 'tenant added');
      return recordOf(row);
    },

    async update(id: number, body: UpdateTenantRequest): Promise<TenantRecord> {
      const before = await existing(id);
      await refuseDuplicates({ name: body.name, directoryId: body.tenantId }, id);
      const row = await ctx.db.transaction(async (tx) => {
        const updated = await createTenantsRepo(tx).update(id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.tenantId !== undefined ? { directoryId: body.tenantId } : {}),
          ...(body.clientId !== undefined ? { clientId: body.clientId } : {}),
          ...(body.clientSecret !== undefined ? { clientSecretSealed: sealTenantSecret(key, body.clientSecret) } : {}),
          ...(body.secretExpiresOn !== undefined ? { secretExpiresOn: body.secretExpiresOn } : {}),
          ...(body.cloud !== undefined ? { cloud: body.cloud } : {}),
          ...(body.visibility !== undefined ? { visibility: body.visibility } : {}),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
          updatedAt: ctx.clock.now(),
        });
        // A tenant made private takes its work and messages from people who were not granted it.
        if (updated && body.visibility === 'private') await ctx.services.accessNarrowed(tx, { cause: 'tenant-made-private', tenantId: id }, ctx.clock.now());
        return updated;
      });
      if (!row) throw new NotFoundError(`There is no tenant with id ${id}`);
      ctx.services.tenantClients.forget(id);
      // A disabled tenant's relevance goes (nothing of it is read any more, so it would only grow stale); enabled
      // again, it is worked out at once from the usage and licences last read.
      if (row.enabled !== before.enabled) await refreshRelevance(id);
      return recordOf(row);
    },

    async remove(id: number, deletePosts: boolean): Promise<{ success: boolean; message: string }> {
      const row = await existing(id);
      if (ctx.services.sync.isRunning('message_center', { id, name: row.name }))
        throw new ConflictError(`${row.name} is being synced; remove it when the sync has finished`);
      const deleted = await ctx.db.transaction((tx) => createTenantsRepo(tx).remove(id, deletePosts, ctx.clock.now()));
      ctx.services.tenantClients.forget(id);
      await refreshRelevance(id);
      ctx.log.info({ tenant: id, name: row.name, deletePosts, deleted }, 'tenant removed');
      return {
        success: true,
        message: deletePosts
          ? `Removed ${row.name} and ${deleted} ${deleted === 1 ? 'post' : 'posts'} no other tenant received`
          : `Removed ${row.name}; its posts stay in the archive`,
      };
    },

    async test(id: number): Promise<ConnectionTestResult> {
      const row = await existing(id);
      return testTenantConnection(ctx.config, row, openTenantSecret(key, row.clientSecretSealed));
    },

    async sync(id: number, userId: number): Promise<TenantSyncResponse> {
      const row = await existing(id);
      if (!row.enabled) throw new ConflictError(`${row.name} is disabled: enable it to sync`);
      const tenant = { id: row.id, name: row.name };
      const options = { trigger: 'admin' as const, triggeredBy: userId };
      // Both feeds at once: each is its own run, and one failing never stops the other.
      const [messages, health] = await Promise.all([ctx.services.sync.syncTenant(tenant, options), ctx.services.sync.syncTenantHealth(tenant, options)]);
      // Then, as the tenant job does, its usage (read now: an admin who just granted the permission sees it) and relevance.
      await ctx.services.tenantFollowUp(tenant.id, { usageNow: true });
      const says = (label: string, run: SyncHistoryRecord) =>
        run.status === 'success'
          ? `${label} sync finished: ${run.newItems} new, ${run.changedItems} changed${run.removedItems ? `, ${run.removedItems} removed` : ''}${run.restoredItems ? `, ${run.restoredItems} restored` : ''}`
          : run.status === 'held'
            ? `${label} snapshot held for an admin: ${run.note ?? ''}`.trim()
            : run.status === 'unchanged'
              ? `${label} unchanged`
              : `${label} sync failed: ${run.errorMessage ?? run.status}`;
      return {
        message: `${row.name}: ${says('Message Center', messages.run)}; ${says('Service Health', health.run)}`,
        runs: [
          { feed: 'messages', status: messages.run.status, syncId: messages.run.id },
          { feed: 'health', status: health.run.status, syncId: health.run.id },
        ],
      };
    },

    access: () => repo.allAccess(),

    async setUserTenants(userId: number, tenantIds: number[]): Promise<{ tenantIds: number[] }> {
      if (!(await createUsersRepo(ctx.db).find(userId))) throw new NotFoundError(`There is no user with id ${userId}`);
      const known = new Set((await repo.list()).map((t) => t.id));
      const unknown = [...new Set(tenantIds)].filter((t) => !known.has(t));
      if (unknown.length) throw fieldError('tenantIds', `no tenant has the id ${unknown.join(', ')}`);
      await ctx.db.transaction(async (tx) => {
        await createTenantsRepo(tx).setAccess(userId, [...new Set(tenantIds)]);
        // Work and messages the user may no longer see are given back or withdrawn, in the same transaction as the grant.
        await ctx.services.accessNarrowed(tx, { cause: 'grant-revoked', userId }, ctx.clock.now());
      });
      return { tenantIds: await repo.accessOf(userId) };
    },
  };
}
