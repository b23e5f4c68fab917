import {
  endpoints,
  isRemoteKey,
  mismatchMessage,
  REMOTE_KEYS,
  REMOTE_LABELS,
  sharedMismatches,
  type RemoteEntry,
  type RemoteKey,
  type RemoteTestResult,
} from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { perAddressLimiter } from '../../http/rate-limit-store.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { readRemoteManifest, readShellBuild, staticRootOf } from './manifest.js';
import { createRemotesRepo, type RemoteRow } from './remotes.repo.js';

/** A browser's "loaded" report is written at most this often per remote (every page load sends one). */
export const LOADED_RECORD_INTERVAL_SECONDS = 60;

/**
 * Reports taken from one address in 15 minutes: the report is public (every visitor's page sends it), so a script
 * could otherwise make the api query the database as fast as it can send. 600 is 40 page loads a minute, far beyond a
 * browser's pace; a refused report changes nothing for the page (the shell ignores its answer).
 */
export const LOADED_REPORTS_PER_ADDRESS = 600;

function remoteName(name: string): RemoteKey {
  if (!isRemoteKey(name)) throw new NotFoundError(`There is no remote named ${name}`);
  return name;
}

/** Admin → Remotes: the registry, changing a URL, rollback, Test; and the shell's report of a loaded remote. */
export function createRemotesEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createRemotesRepo(ctx.db);
  const registry = ctx.services.remotes;
  const readOptions = { staticRoot: staticRootOf(ctx.config), timeoutMs: ctx.config.REMOTE_MANIFEST_TIMEOUT_MS, guard: ctx.services.alerts.deliveryDeps.guard };
  const loadedLimiter = perAddressLimiter({
    name: 'remote-loaded',
    windowMs: 15 * 60 * 1000,
    limit: LOADED_REPORTS_PER_ADDRESS,
    message: 'Too many reports from this address. Please try again later.',
  });

  // The URL the operator configured (REMOTE_*_URL) is trusted configuration; any other URL is an admin's entry and
  // passes the SSRF guard.
  const optionsFor = (name: RemoteKey, url: string) => ({ ...readOptions, trusted: url === registry.configured[name] });

  const entryOf = async (name: RemoteKey, row: RemoteRow | undefined): Promise<RemoteEntry> => {
    const url = row?.url ?? registry.configured[name];
    const manifest = await readRemoteManifest(url, optionsFor(name, url));
    return {
      name,
      url,
      version: manifest.reachable ? manifest.version : null,
      previousUrl: row?.previousUrl ?? null,
      lastLoadedAt: row?.lastLoadedAt?.toISOString() ?? null,
    };
  };
  const currentUrl = async (name: RemoteKey) => (await repo.get(name))?.url ?? registry.configured[name];

  return [
    implement(endpoints.remotes.list, async () => {
      const rows = new Map((await repo.list()).map((row) => [row.name, row]));
      return Promise.all(REMOTE_KEYS.map((name) => entryOf(name, rows.get(name))));
    }),
    implement(endpoints.remotes.update, async ({ params, body, auth }) => {
      const name = remoteName(params.name);
      const row = await repo.setUrl(name, body.url, await currentUrl(name), ctx.clock.now());
      ctx.log.info({ remote: name, url: row.url, previousUrl: row.previousUrl, by: auth.user.id }, 'remote URL changed');
      return entryOf(name, row);
    }),
    implement(endpoints.remotes.rollback, async ({ params, auth }) => {
      const name = remoteName(params.name);
      const row = await repo.rollback(name, ctx.clock.now());
      if (!row) throw new ConflictError(`${REMOTE_LABELS[name]} has no previous URL to roll back to`);
      ctx.log.info({ remote: name, url: row.url, by: auth.user.id }, 'remote rolled back');
      return entryOf(name, row);
    }),
    implement(endpoints.remotes.test, async ({ params }) => {
      const name = remoteName(params.name);
      const url = await currentUrl(name);
      return testRemote(name, url, optionsFor(name, url));
    }),
    implement(
      endpoints.remotes.loaded,
      async ({ params, body }) => {
        const name = remoteName(params.name);
        return { recorded: await repo.markLoaded(name, body.url, ctx.clock.now(), LOADED_RECORD_INTERVAL_SECONDS) };
      },
      { middleware: [loadedLimiter] },
    ),
  ];
}

/** Fetches the manifest and checks its shared-library ranges against the shell's build, as the shell does before loading. */
export async function testRemote(name: RemoteKey, url: string, opts: Parameters<typeof readRemoteManifest>[1]): Promise<RemoteTestResult> {
  const label = REMOTE_LABELS[name];
  const manifest = await readRemoteManifest(url, opts);
  if (!manifest.reachable) {
    return {
      name,
      url,
      ok: false,
      reachable: false,
      version: null,
      compatible: null,
      mismatches: [],
      message: `${label} could not be loaded: ${manifest.problem}`,
    };
  }
  const { version, build } = manifest;
  const base = { name, url, reachable: true, version };
  const found = `${label}${version ? ` ${version}` : ''} answers`;
  if (!build) {
    return {
      ...base,
      ok: true,
      compatible: null,
      mismatches: [],
      message: `${found}; its manifest states no shared-library ranges, so compatibility was not checked.`,
    };
  }
  const shell = await readShellBuild(opts.staticRoot);
  if (!shell) {
    return {
      ...base,
      ok: true,
      compatible: null,
      mismatches: [],
      message: `${found}; the shell's build (shell/dist/radar-build.json) is not here to compare with.`,
    };
  }
  const mismatches = sharedMismatches(shell.shared, build.shared);
  if (mismatches.length > 0)
    return { ...base, ok: false, compatible: false, mismatches, message: `Incompatible: ${mismatchMessage(label, version, mismatches)}` };
  return { ...base, ok: true, compatible: true, mismatches: [], message: `${found} and is compatible with this site's shared libraries.` };
}
