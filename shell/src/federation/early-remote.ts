/**
 * Starts a remote's manifest, remoteEntry.js and the chunks of its ./App as soon as the shell's entry runs, in
 * parallel with the shell's own chunks. Without this the remote's files wait until React has rendered the route
 * (after every shared chunk has downloaded and run), and the federation runtime's own preloadRemote waits for the
 * same point. The manifest response is handed to the runtime's first fetch of it (remoteTimeoutPlugin), so it is
 * requested once; the scripts are <link rel=preload>, which the runtime's and webpack's <script> tags then use.
 */

interface RemoteManifest {
  metaData?: { publicPath?: string; remoteEntry?: { path?: string; name?: string } };
  exposes?: { path?: string; assets?: { js?: { sync?: string[] } } }[];
}

const earlyManifests = new Map<string, Promise<Response>>();
/** The same early responses, parsed, for the compatibility check before the remote loads (once each). */
const earlyManifestJson = new Map<string, Promise<unknown>>();

/** The early manifest response for `url`, once (the runtime's first fetch of it); later fetches go to the network. */
export function takeEarlyManifest(url: string): Promise<Response> | undefined {
  const response = earlyManifests.get(url);
  earlyManifests.delete(url);
  return response;
}

function preloadScript(href: string): void {
  const link = document.createElement('link');
  link.setAttribute('rel', 'preload');
  link.setAttribute('as', 'script');
  link.setAttribute('href', href);
  document.head.appendChild(link);
}

/** The files a manifest names for `expose`: remoteEntry.js and the expose's synchronous chunks (absolute URLs). */
export function remoteFilesOf(manifest: RemoteManifest, manifestUrl: string, expose = './App'): string[] {
  const publicPath = manifest.metaData?.publicPath;
  const base = !publicPath || publicPath === 'auto' ? new URL('.', manifestUrl).href : new URL(publicPath, manifestUrl).href;
  const entry = manifest.metaData?.remoteEntry;
  const files = entry?.name ? [`${entry.path ? `${entry.path.replace(/\/?$/, '/')}` : ''}${entry.name}`] : [];
  files.push(...(manifest.exposes?.find((e) => e.path === expose)?.assets?.js?.sync ?? []));
  return files.map((file) => new URL(file, base).href);
}

/**
 * Fetches the manifest at `entryUrl` (an mf-manifest.json; a remoteEntry.js URL is preloaded as it is) and preloads
 * what the remote's ./App needs. Errors are left to the real load, which reports them in the page (RemoteApp).
 */
export function preloadRemoteApp(entryUrl: string, timeoutMs: number): void {
  const url = new URL(entryUrl, window.location.href).href;
  if (!/\.json(\?|$)/.test(url)) {
    preloadScript(url);
    return;
  }
  const response = fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  earlyManifests.set(url, response);
  const json = response.then((r) => (r.ok ? (r.clone().json() as Promise<RemoteManifest>) : undefined));
  json.catch(() => undefined);
  earlyManifestJson.set(url, json);
  json.then((manifest) => manifest && remoteFilesOf(manifest, url).forEach(preloadScript)).catch(() => undefined);
}

/**
 * The manifest at `url`, parsed: the entry's early request when there was one (used once), else a fresh request.
 * Resolves to undefined when it cannot be read: the real load then reports why.
 */
export function remoteManifest(url: string, timeoutMs: number): Promise<unknown> {
  const early = earlyManifestJson.get(url);
  earlyManifestJson.delete(url);
  const manifest = early ?? fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then((r) => (r.ok ? (r.json() as Promise<unknown>) : undefined));
  return manifest.catch(() => undefined);
}
