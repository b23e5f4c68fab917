// The site's pages by path, shared by the shell (its route table) and the api (which answers a path no page has with
// HTTP 404). Plain data and one function, no zod: the shell's first script imports it.

/** The shell's own pages. */
export const SHELL_PAGE_PATHS = ['/', '/profile', '/notifications', '/contact', '/privacy', '/terms'] as const;

/**
 * The remotes' areas. An area with `subPaths` owns every path below it: the remote's own router decides those, so the
 * server answers them 200 and a remote's not-found page tells search engines not to index it.
 */
export const REMOTE_AREAS = [
  { path: '/dashboard', remote: 'dashboard', subPaths: true, ownsHeader: true },
  { path: '/weekly-digest', remote: 'digest', subPaths: true, ownsHeader: false },
  { path: '/admin', remote: 'admin', subPaths: true, ownsHeader: false },
  { path: '/test-moderator', remote: 'admin', subPaths: false, ownsHeader: false },
] as const;

/** Share links: /roadmap/{itemId}, /message/{messageId} and /health/{issueId} open the item on the dashboard. */
export const SHARE_LINK_PREFIXES = { roadmap: '/roadmap/', message: '/message/', health: '/health/' } as const;

export type SitePath =
  | { kind: 'page'; path: (typeof SHELL_PAGE_PATHS)[number] }
  | { kind: 'remote'; remote: (typeof REMOTE_AREAS)[number]['remote']; subPath: boolean }
  | { kind: 'share-link' }
  | { kind: 'unknown' };

/** What the site shows at `pathname` (a trailing slash ignored); 'unknown' is a 404. */
export function sitePathOf(pathname: string): SitePath {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
  const page = SHELL_PAGE_PATHS.find((p) => p === path);
  if (page) return { kind: 'page', path: page };
  for (const prefix of Object.values(SHARE_LINK_PREFIXES)) {
    if (path.startsWith(prefix) && /^[^/]+$/.test(path.slice(prefix.length))) return { kind: 'share-link' };
  }
  for (const area of REMOTE_AREAS) {
    if (path === area.path) return { kind: 'remote', remote: area.remote, subPath: false };
    if (area.subPaths && path.startsWith(`${area.path}/`)) return { kind: 'remote', remote: area.remote, subPath: true };
  }
  return { kind: 'unknown' };
}
