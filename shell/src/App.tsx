import { Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Box, CircularProgress } from '@mui/material';
import { HydrationDone, lazyNamed } from '@radar/shared-ui';
import { ShellLayout } from './components/ShellLayout/index.js';
import { RemoteApp } from './components/RemoteApp/index.js';
import { ShareLinkRedirect } from './components/ShareLinkRedirect/index.js';
import { NotFoundPage } from './pages/NotFoundPage/index.js';
import { PAGE_ROUTES, REMOTE_ROUTES, SHARE_LINK_PREFIXES, loadPage, loadedPage, type ShellPage } from './routes.js';

const EXPORT_NAMES = {
  landing: 'LandingPage',
  profile: 'ProfilePage',
  notifications: 'NotificationsPage',
  contact: 'ContactPage',
  privacy: 'PrivacyPage',
  terms: 'TermsPage',
} as const satisfies Record<ShellPage, string>;

const LAZY_PAGES = Object.fromEntries(
  Object.entries(EXPORT_NAMES).map(([page, name]) => [page, lazyNamed(() => loadPage(page as ShellPage) as Promise<Record<string, ComponentType>>, name)]),
) as Record<ShellPage, ComponentType>;

/**
 * A shell page: rendered at once when its chunk is already here (the entry loads the first route's page before it
 * mounts the app), else lazily. Suspending would hold the page back until 300 ms after the fallback showed.
 */
function Page({ page }: { page: ShellPage }) {
  const module = loadedPage(page) as Record<string, ComponentType> | undefined;
  const Loaded = module?.[EXPORT_NAMES[page]];
  const Lazy = LAZY_PAGES[page];
  return Loaded ? <Loaded /> : <Lazy />;
}

function PageLoading() {
  return (
    <Box role="status" sx={{ py: 10, display: 'flex', justifyContent: 'center' }}>
      <CircularProgress aria-label="Loading page" />
    </Box>
  );
}

/** The full route table: shell pages, remote areas, share links and the 404 fallback. */
export function App() {
  return (
    <ShellLayout>
      <Suspense fallback={<PageLoading />}>
        {/* The page's server-rendered boundary: hydration of a server render ends when it is hydrated. */}
        <HydrationDone />
        <Routes>
          {PAGE_ROUTES.map(({ path, page }) => (
            <Route key={path} path={path} element={<Page page={page} />} />
          ))}
          {REMOTE_ROUTES.map(({ path, remote, ownsHeader }) => (
            <Route key={path} path={path} element={<RemoteApp remote={remote} ownsHeader={ownsHeader} />} />
          ))}
          {(Object.keys(SHARE_LINK_PREFIXES) as (keyof typeof SHARE_LINK_PREFIXES)[]).map((param) => (
            <Route key={param} path={`${SHARE_LINK_PREFIXES[param]}:id`} element={<ShareLinkRedirect param={param} />} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </ShellLayout>
  );
}
