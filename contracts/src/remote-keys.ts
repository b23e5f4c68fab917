// Remote names, labels and the URL rule, without zod: the shell's entry and first paint import these (a module with
// zod schemas at its top level would bring zod along, since schema construction is not tree-shaken).

/** The remotes the shell hosts, by the short name the runtime config and the registry use. */
export const REMOTE_KEYS = ['dashboard', 'admin', 'digest'] as const;
export type RemoteKey = (typeof REMOTE_KEYS)[number];

/** User-facing names, for messages. */
export const REMOTE_LABELS: Record<RemoteKey, string> = { dashboard: 'Dashboard', admin: 'Admin', digest: 'Weekly Digest' };

/** Where each remote is served by the api itself (the default when REMOTE_*_URL is not set). */
export const defaultRemoteUrl = (name: RemoteKey): string => `/remotes/${name}/mf-manifest.json`;

export const isRemoteKey = (value: string): value is RemoteKey => (REMOTE_KEYS as readonly string[]).includes(value);

const LOOPBACK_HOST = /^(localhost|[a-z0-9-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Why a remote URL cannot be used, or null. A remote's URL names its mf-manifest.json (the shell reads its version
 * and shared-library ranges from it): https anywhere, http only on a loopback host (development), or a path on this
 * site (the api serves the built remotes at /remotes/<name>/). No credentials in the URL: it is sent to every browser.
 */
export function remoteUrlProblem(url: string): string | null {
  if (url.startsWith('/') && !url.startsWith('//')) {
    return /\.json$/.test(url.split(/[?#]/)[0] ?? '') ? null : "url must point to the remote's mf-manifest.json";
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute https URL (or a path on this site)';
  }
  if (parsed.protocol === 'http:') {
    if (!LOOPBACK_HOST.test(parsed.hostname)) return 'url must be https (http is allowed only for localhost and loopback addresses)';
  } else if (parsed.protocol !== 'https:') {
    return 'url must be https (http is allowed only for localhost and loopback addresses)';
  }
  if (parsed.username || parsed.password) return 'url must not contain a user name or password';
  if (!/\.json$/.test(parsed.pathname)) return "url must point to the remote's mf-manifest.json";
  return null;
}
