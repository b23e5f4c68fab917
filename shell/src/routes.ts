import { REMOTE_AREAS, SHARE_LINK_PREFIXES, sitePathOf, type SHELL_PAGE_PATHS } from '@radar/contracts';
import type { RemoteKey } from './federation/remotes.js';

/**
 * The code each shell page needs, loaded on demand: App.tsx renders these lazily, and index.ts starts loading the
 * current route's chunk together with the shell's own (no extra round trip after the bootstrap).
 * No React here: index.ts runs before the shared modules exist.
 */
export const PAGE_CHUNKS = {
  landing: () => import('./pages/LandingPage/index.js'),
  profile: () => import('./pages/ProfilePage/index.js'),
  notifications: () => import('./pages/NotificationsPage/index.js'),
  contact: () => import('./pages/ContactPage/index.js'),
  privacy: () => import('./pages/PrivacyPage/index.js'),
  terms: () => import('./pages/TermsPage/index.js'),
};
export type ShellPage = keyof typeof PAGE_CHUNKS;
type PageModule<P extends ShellPage> = Awaited<ReturnType<(typeof PAGE_CHUNKS)[P]>>;

const loadedPages = new Map<ShellPage, unknown>();

/** Loads a page's chunk and remembers its module, so App can render it without suspending once it is here. */
export function loadPage<P extends ShellPage>(page: P): Promise<PageModule<P>> {
  return PAGE_CHUNKS[page]().then((module) => {
    loadedPages.set(page, module);
    return module as PageModule<P>;
  });
}

/** The page's module if its chunk has already loaded. */
export function loadedPage<P extends ShellPage>(page: P): PageModule<P> | undefined {
  return loadedPages.get(page) as PageModule<P> | undefined;
}

/** Shell pages by path; App.tsx's route table is built from this and REMOTE_ROUTES (contracts' site routes). */
export const PAGE_ROUTES: { path: (typeof SHELL_PAGE_PATHS)[number]; page: ShellPage }[] = [
  { path: '/', page: 'landing' },
  { path: '/profile', page: 'profile' },
  { path: '/notifications', page: 'notifications' },
  { path: '/contact', page: 'contact' },
  { path: '/privacy', page: 'privacy' },
  { path: '/terms', page: 'terms' },
];

/** Remote areas by path (an area with sub-paths as `/area/*`); share links redirect into the dashboard. */
export const REMOTE_ROUTES: { path: string; remote: RemoteKey; ownsHeader?: boolean }[] = REMOTE_AREAS.map((area) => ({
  path: area.subPaths ? `${area.path}/*` : area.path,
  remote: area.remote,
  ownsHeader: area.ownsHeader,
}));
export { SHARE_LINK_PREFIXES };

/** What the page at `pathname` shows first: a shell page, a remote, or neither (404). */
export function routeOf(pathname: string): { page?: ShellPage; remote?: RemoteKey } {
  const site = sitePathOf(pathname);
  if (site.kind === 'page') return { page: PAGE_ROUTES.find((route) => route.path === site.path)?.page };
  if (site.kind === 'share-link') return { remote: 'dashboard' };
  if (site.kind === 'remote') return { remote: site.remote };
  return {};
}
