import { graphConfigured } from '../../config.js';
import type { AppContext } from '../../app-context.js';
import { LOCK_KEYS, lockForTransaction } from '../../db/advisory-locks.js';
import { createTenantsRepo } from './tenants.repo.js';
import { openTenantSecret, sealTenantSecret, tenantSecretKey } from './tenant-secret.js';

/** The name the tenant made from the GRAPH_* settings starts with (admins may rename it). */
export const ENVIRONMENT_TENANT_NAME = 'Primary tenant';

/** The cloud of the GRAPH_* tenant, from its Graph host (a host we do not know is read as Worldwide). */
function cloudOf(graphUrl: string) {
  const host = new URL(graphUrl).host;
  if (host === 'dod-graph.microsoft.us') return 'dod';
  if (host === 'graph.microsoft.us') return 'gcchigh';
  return 'worldwide';
}

/**
 * The upgrade from one tenant: GRAPH_TENANT_ID, GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET become a public tenant at
 * start, and the Message Center posts synced before tenants existed are attributed to it, so nothing is lost and
 * every reader still sees them. The settings stay the truth for that tenant: a changed id or secret is taken at the
 * next start.
 */
export async function environmentTenantTask(ctx: AppContext): Promise<void> {
  const { config } = ctx;
  const { GRAPH_TENANT_ID: directoryId, GRAPH_CLIENT_ID: clientId, GRAPH_CLIENT_SECRET: secret } = config;
  if (!graphConfigured(config) || !directoryId || !clientId || !secret) return;
  const key = tenantSecretKey(ctx.secret);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    // Replicas start together: one makes the tenant, the others wait here and then find it.
    await lockForTransaction(tx, LOCK_KEYS.environmentTenant);
    const repo = createTenantsRepo(tx);
    const kept = (await repo.list()).find((t) => t.fromEnvironment) ?? (await repo.byDirectoryId(directoryId));
    if (!kept) {
      const name = (await repo.byName(ENVIRONMENT_TENANT_NAME)) ? `${ENVIRONMENT_TENANT_NAME} (${directoryId})` : ENVIRONMENT_TENANT_NAME;
      const tenant = await repo.insert({
        name,
        directoryId,
        clientId,
        clientSecretSealed: sealTenantSecret(key, secret),
        cloud: cloudOf(config.GRAPH_API_URL),
        visibility: 'public',
        enabled: true,
        fromEnvironment: true,
        createdAt: now,
        updatedAt: now,
      });
      const adopted = await repo.adoptUnattributedPosts(tenant.id);
      ctx.log.info({ tenant: tenant.id, posts: adopted }, 'the GRAPH_* settings became the tenant "%s"; existing posts belong to it', name);
      return;
    }
    const changed = kept.directoryId !== directoryId || kept.clientId !== clientId || openTenantSecret(key, kept.clientSecretSealed) !== secret;
    if (kept.fromEnvironment && changed) {
      await repo.update(kept.id, { directoryId, clientId, clientSecretSealed: sealTenantSecret(key, secret), updatedAt: now });
      ctx.log.info({ tenant: kept.id }, 'tenant credentials taken from the changed GRAPH_* settings');
    }
  });
}
