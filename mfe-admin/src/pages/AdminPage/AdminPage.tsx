import { Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Box, CircularProgress, Container, Tab, Tabs, Typography } from '@mui/material';
import { MainLandmark } from '@radar/shared-ui';
import { AccessCheck } from '../../components/AccessCheck/index.js';
import { ADMIN_APP_VERSION } from '../../build-version.js';
import { ADMIN_TABS } from './admin-tabs.js';

/** /admin: the admin dashboard, behind the access check; the open tab lives in ?tab= so it survives a reload. */
export function AdminPage() {
  return (
    <Container component={MainLandmark} maxWidth="xl" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        Admin Dashboard
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Sync history, change history, users and roles, product mappings, contact forms, digest reports, analytics, AI summary, moderator activity and remotes.
      </Typography>
      <AccessCheck>
        <AdminTabs />
      </AccessCheck>
      <Typography variant="caption" component="p" color="text.secondary" sx={{ mt: 4 }}>
        Admin app version {ADMIN_APP_VERSION}
      </Typography>
    </Container>
  );
}

function AdminTabs() {
  const [params, setParams] = useSearchParams();
  const index = Math.max(
    0,
    ADMIN_TABS.findIndex((t) => t.id === params.get('tab')),
  );
  const tab = ADMIN_TABS[index];
  const select = (next: number) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        copy.set('tab', ADMIN_TABS[next].id);
        return copy;
      },
      { replace: true },
    );
  return (
    <>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        {/* On a phone the strip scrolls: its arrows show that more tabs are off to the side (MUI hides them on touch screens by default). */}
        <Tabs
          value={index}
          onChange={(_, next: number) => select(next)}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label="Admin sections"
        >
          {ADMIN_TABS.map((t) => (
            <Tab key={t.id} label={t.label} id={`admin-tab-${t.id}`} aria-controls={`admin-panel-${t.id}`} />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`admin-panel-${tab.id}`} aria-labelledby={`admin-tab-${tab.id}`}>
        <Suspense
          fallback={
            <Box role="status" sx={{ py: 6, display: 'flex', justifyContent: 'center' }}>
              <CircularProgress aria-label={`Loading ${tab.label}`} />
            </Box>
          }
        >
          {tab.render()}
        </Suspense>
      </Box>
    </>
  );
}
