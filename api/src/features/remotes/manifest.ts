import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { radarBuildInfo, type RadarBuildInfo, type RemoteKey } from '@radar/contracts';
import type { Config } from '../../config.js';
import { REMOTE_DIRS } from '../../http/static-bundles.js';
import { checkWebhookUrl, systemResolver, type GuardOptions } from '../alerts/ssrf-guard.js';
import { getFromChecked } from '../alerts/webhook-http.js';

/** The repository root (same from src/ and dist/): where the built bundles are unless STATIC_ROOT says otherwise. */
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const staticRootOf = (config: Pick<Config, 'STATIC_ROOT'>): string => config.STATIC_ROOT ?? REPO_ROOT;

/** A manifest far larger than any real one is not a manifest. */
const MAX_MANIFEST_BYTES = 2 * 1024 * 1024;

export type ManifestRead = { reachable: true; version: string | null; build: RadarBuildInfo | null } | { reachable: false; problem: string };

interface ReadOptions {
  staticRoot: string;
  timeoutMs: number;
  /**
   * The SSRF guard for absolute URLs (the webhooks' guard: public hosts only unless ALLOW_PRIVATE_WEBHOOKS). Without
   * it only paths of this site are read.
   */
  guard?: GuardOptions;
  /**
   * The URL is the operator's configuration (REMOTE_*_URL), trusted as the environment is: read from any host, over
   * http or https, without the guard's address rule. An admin-entered URL never is.
   */
  trusted?: boolean;
}

/**
 * Reads a remote's mf-manifest.json as the shell would: an absolute URL over HTTP (one attempt, the feeds' outbound
 * conventions: a timeout covering headers and body, no redirects), a path of the api's own bundles from the disk.
 */
export async function readRemoteManifest(url: string, opts: ReadOptions): Promise<ManifestRead> {
  let text: string;
  try {
    text = /^https?:\/\//i.test(url) ? await fetchManifest(url, opts) : await readServedManifest(url, opts.staticRoot);
  } catch (err) {
    return { reachable: false, problem: (err as Error).message };
  }
  if (text.length > MAX_MANIFEST_BYTES) return { reachable: false, problem: `${url} is larger than a manifest can be` };
  let manifest: { metaData?: { radar?: unknown; buildInfo?: { buildVersion?: unknown } } };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return { reachable: false, problem: `${url} is not JSON (is it the remote's mf-manifest.json?)` };
  }
  if (typeof manifest !== 'object' || manifest === null || typeof manifest.metaData !== 'object') {
    return { reachable: false, problem: `${url} is not a module-federation manifest (no metaData)` };
  }
  const parsed = radarBuildInfo.safeParse(manifest.metaData.radar);
  const build = parsed.success ? parsed.data : null;
  const buildVersion = manifest.metaData.buildInfo?.buildVersion;
  return { reachable: true, version: build?.version ?? (typeof buildVersion === 'string' ? buildVersion : null), build };
}

/**
 * An admin-entered URL is read through the SSRF guard (its host must be public unless ALLOW_PRIVATE_WEBHOOKS), from the
 * checked address, capped at MAX_MANIFEST_BYTES while it arrives; refusals and failures say nothing of the network
 * behind (the detail goes to no one: the Remotes tab is the only reader). A configured URL (`trusted`) is read the same
 * way from whatever address its host has.
 */
async function fetchManifest(url: string, opts: ReadOptions): Promise<string> {
  const guard: GuardOptions | undefined = opts.trusted ? { resolve: opts.guard?.resolve ?? systemResolver, allowPrivate: true } : opts.guard;
  if (!guard) throw new Error(`${url} is not read: only paths of this site are`);
  const target = await checkWebhookUrl(url, { ...guard, label: 'Remote URL' });
  const answer = await getFromChecked(target, MAX_MANIFEST_BYTES, opts.timeoutMs);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${url} answered HTTP ${answer.status}`);
  return answer.text;
}

/** `/remotes/<name>/<file>`: the bundle the api serves itself, read where it serves it from. */
async function readServedManifest(url: string, staticRoot: string): Promise<string> {
  const match = /^\/remotes\/(dashboard|admin|digest)\/([^?#]+)/.exec(url);
  if (!match) throw new Error(`${url} is not served by this api (only /remotes/<name>/… paths are)`);
  const dist = path.join(staticRoot, REMOTE_DIRS[match[1] as RemoteKey], 'dist');
  const file = path.resolve(dist, decodeURIComponent(match[2] ?? ''));
  if (!file.startsWith(dist + path.sep)) throw new Error(`${url} is outside the remote's folder`);
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    throw new Error(`${url} was not found (is the remote built?)`);
  }
}

/**
 * The versions of the shared libraries the shell provides, as its build wrote them (shell/dist/radar-build.json);
 * null when the shell is not built here (an api-only deployment).
 */
export async function readShellBuild(staticRoot: string): Promise<RadarBuildInfo | null> {
  try {
    const parsed = radarBuildInfo.safeParse(JSON.parse(await fs.readFile(path.join(staticRoot, 'shell', 'dist', 'radar-build.json'), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
