import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { Box } from '@mui/material';
import { AfterFirstPaint, AppHeader, ImpersonationBanner, MainLandmark } from '@radar/shared-ui';
import { Footer } from '../Footer/index.js';
import { OneShotParams } from '../OneShotParams/index.js';

/**
 * Impersonation banner (every page, the dashboard too), header (hidden on /dashboard, which renders its own with
 * Export), page area and footer. "Skip to content" goes to the page's one <main> (MainLandmark).
 */
export function ShellLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const onDashboard = pathname === '/dashboard' || pathname.startsWith('/dashboard/');
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box
        component="a"
        href="#main"
        sx={{ position: 'absolute', left: -9999, '&:focus': { left: 8, top: 8, zIndex: 2000, p: 1, bgcolor: 'background.paper' } }}
      >
        Skip to content
      </Box>
      <ImpersonationBanner />
      {onDashboard ? null : <AppHeader />}
      {/* The page area is the page's <main> (the skip link's target); on the dashboard, whose remote draws its own header,
          the dashboard's page is, so its header stays outside the landmark. */}
      <Box component={onDashboard ? 'div' : MainLandmark} sx={{ flex: 1, display: 'flex', flexDirection: 'column' }}>
        {children}
      </Box>
      <AfterFirstPaint>
        <Footer />
      </AfterFirstPaint>
      <OneShotParams />
    </Box>
  );
}
