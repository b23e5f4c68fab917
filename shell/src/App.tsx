import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Box, CircularProgress } from '@mui/material';
import { lazyNamed } from '@radar/shared-ui';
import { ShellLayout } from './components/ShellLayout/index.js';
import { RemoteApp } from './components/RemoteApp/index.js';
import { ShareLinkRedirect } from './components/ShareLinkRedirect/index.js';
import { NotFoundPage } from './pages/NotFoundPage/index.js';
import { PAGE_CHUNKS, PAGE_ROUTES, REMOTE_ROUTES, SHARE_LINK_PREFIXES, type ShellPage } from './routes.js';

const PAGES: Record<ShellPage, React.ComponentType> = {
  landing: lazyNamed(PAGE_CHUNKS.landing, 'LandingPage'),
  profile: lazyNamed(PAGE_CHUNKS.profile, 'ProfilePage'),
  notifications: lazyNamed(PAGE_CHUNKS.notifications, 'NotificationsPage'),
  contact: lazyNamed(PAGE_CHUNKS.contact, 'ContactPage'),
  privacy: lazyNamed(PAGE_CHUNKS.privacy, 'PrivacyPage'),
  terms: lazyNamed(PAGE_CHUNKS.terms, 'TermsPage'),
};

function PageLoading() {
  return (
    <Box role="status" sx={{ py: 10, display: 'flex', justifyContent: 'center' }}>
      <CircularProgress aria-label="Loading page" />
    </Box>
  );
}

/** The full route table (spec 02 §2): shell pages, remote areas, share links and the 404 fallback. */
export function App() {
  return (
    <ShellLayout>
      <Suspense fallback={<PageLoading />}>
        <Routes>
          {PAGE_ROUTES.map(({ path, page }) => {
            const Page = PAGES[page];
            return <Route key={path} path={path} element={<Page />} />;
          })}
          {REMOTE_ROUTES.map(({ path, remote, ownsHeader }) => (
            <Route key={path} path={path} element={<RemoteApp remote={remote} ownsHeader={ownsHeader} />} />
          ))}
          <Route path={`${SHARE_LINK_PREFIXES.roadmap}:id`} element={<ShareLinkRedirect param="roadmap" />} />
          <Route path={`${SHARE_LINK_PREFIXES.message}:id`} element={<ShareLinkRedirect param="message" />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </ShellLayout>
  );
}
