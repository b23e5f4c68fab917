import { REMOTE_KEYS, defaultRemoteUrl, remoteUrlProblem, type RemoteKey } from '@radar/contracts';
import type { BaseDeps } from '../../deps.js';
import { createRemotesRepo, readRegistryRevision, type RemoteRow } from './remotes.repo.js';

export type RemoteUrls = Record<RemoteKey, string>;

export interface RegistrySnapshot {
  /** The registry revision these URLs are from (-1: the database could not be read; the configuration is used). */
  revision: number;
  urls: RemoteUrls;
  /** The origins of the remotes served from elsewhere, for the shell page's Content-Security-Policy. */
  origins: string[];
}

export interface RemoteRegistry {
  /** The URLs the shell loads now: read per page, the rows re-read only when the revision moved. */
  snapshot(): Promise<RegistrySnapshot>;
  /** The URLs the configuration names (REMOTE_*_URL, else the api's own bundles): a registry row's initial value. */
  configured: RemoteUrls;
  /** Writes the configured URLs into rows no admin has changed (at start, in the process that runs migrations). */
  syncFromConfig(): Promise<void>;
}

export function configuredRemoteUrls(config: BaseDeps['config']): RemoteUrls {
  return {
    dashboard: config.REMOTE_DASHBOARD_URL ?? defaultRemoteUrl('dashboard'),
    admin: config.REMOTE_ADMIN_URL ?? defaultRemoteUrl('admin'),
    digest: config.REMOTE_DIGEST_URL ?? defaultRemoteUrl('digest'),
  };
}

/** The URL of each remote: its row, or the configured one for a remote without a row yet. */
export function effectiveUrls(rows: readonly RemoteRow[], configured: RemoteUrls): RemoteUrls {
  const urls = { ...configured };
  for (const row of rows) if ((REMOTE_KEYS as readonly string[]).includes(row.name)) urls[row.name as RemoteKey] = row.url;
  return urls;
}

/**
 * Origins of absolute URLs (a path is this site's own origin: 'self'). They become CSP sources, so a URL that breaks
 * the remote URL rule (a row written before the rule, a configured value) contributes none, whatever its origin.
 */
export function originsOf(urls: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!/^https?:\/\//i.test(url) || remoteUrlProblem(url) !== null) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // A configured value that is not a URL cannot be loaded either; it contributes no origin.
    }
  }
  return [...origins].sort();
}

function snapshotOf(revision: number, urls: RemoteUrls): RegistrySnapshot {
  return { revision, urls, origins: originsOf(Object.values(urls)) };
}

export function createRemoteRegistry(deps: Pick<BaseDeps, 'db' | 'pool' | 'config' | 'log' | 'clock'>): RemoteRegistry {
  const configured = configuredRemoteUrls(deps.config);
  const repo = createRemotesRepo(deps.db);
  let cached: RegistrySnapshot | undefined;
  return {
    configured,
    async snapshot() {
      try {
        const revision = await readRegistryRevision(deps.pool);
        if (cached?.revision === revision) return cached;
        cached = snapshotOf(revision, effectiveUrls(await repo.list(), configured));
        return cached;
      } catch (err) {
        // The page must still be served while the database is away: the last URLs read, else the configured ones.
        deps.log.warn({ err }, 'remote registry unreadable; using the last known remote URLs');
        return cached ?? snapshotOf(-1, configured);
      }
    },
    syncFromConfig: () => repo.syncFromConfig(configured, deps.clock.now()),
  };
}
