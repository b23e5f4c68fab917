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

/** A DNS host name (letters, digits and hyphens in dot-separated labels; IDNs in their xn-- form). */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;

/**
 * True for a host a Content-Security-Policy source may name: a real host name or an IP literal. The WHATWG URL parser
 * accepts `*`, `;`, `'` and `,` in host names, which would widen the policy (`https://*.example.com`) or add to it.
 */
export function isPlainHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return HOST_NAME.test(host) || IPV4.test(host) || IPV6_LITERAL.test(host);
}

/**
 * Why a remote URL cannot be used, or null. A remote's URL names its mf-manifest.json (the shell reads its version
 * and shared-library ranges from it): https anywhere, http only on a loopback host (development), or a path on this
 * site (the api serves the built remotes at /remotes/<name>/). No credentials in the URL: it is sent to every browser.
 * Its origin becomes a CSP source of the shell page, so the host must be a real host name or an IP literal, and the
 * text holds no spaces, quotes, semicolons, wildcards or backslashes (`/\evil.com/x.json` is no path of this site:
 * browsers read `/\` as `//`).
 */
export function remoteUrlProblem(url: string): string | null {
  const unsafe = /[\s'";,*\\]/.test(url) ? 'url must not contain spaces, quotes, semicolons, commas, wildcards or backslashes' : null;
  if (url.startsWith('/') && !url.startsWith('//')) {
    if (unsafe) return unsafe;
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
  if (unsafe) return unsafe;
  if (parsed.username || parsed.password) return 'url must not contain a user name or password';
  if (!isPlainHost(parsed.hostname)) return 'url must name a host (a host name or an IP address)';
  if (!/\.json$/.test(parsed.pathname)) return "url must point to the remote's mf-manifest.json";
  return null;
}
