import { Button, CircularProgress, Stack, Typography } from '@mui/material';
import { routes } from '@radar/contracts';
import { useEndpoint, useSession } from '@radar/shared-ui';
import { PageContainer } from '../../components/PageContainer/index.js';
import { AlertChannelsCard } from './AlertChannelsCard.js';
import { ItemSubscriptionsCard } from './ItemSubscriptionsCard.js';
import { SavedSearchesCard } from './SavedSearchesCard.js';
import { TriageMailCard } from './TriageMailCard.js';
import { WeeklyDigestCard } from './WeeklyDigestCard.js';

/** /notifications. */
export function NotificationsPage() {
  const { isAuthenticated, isLoading, isAdmin } = useSession();
  const channels = useEndpoint(routes.alerts.listChannels, isAuthenticated ? {} : null);
  if (isLoading) {
    return (
      <PageContainer title="Notification Settings">
        <CircularProgress aria-label="Loading notification settings" />
      </PageContainer>
    );
  }
  if (!isAuthenticated) {
    return (
      <PageContainer title="Notification Settings" subtitle="Sign in required">
        <Typography sx={{ mb: 2 }}>Sign in to manage your weekly digest, item subscriptions and saved-search alerts.</Typography>
        <Button variant="contained" component="a" href={routes.auth.loginNavigation.path}>
          Sign in
        </Button>
      </PageContainer>
    );
  }
  return (
    <PageContainer title="Notification Settings" subtitle="Choose which e-mails M365 Radar sends you.">
      <Stack spacing={3}>
        <WeeklyDigestCard />
        <ItemSubscriptionsCard />
        <TriageMailCard />
        <SavedSearchesCard channels={channels.data ?? []} />
        <AlertChannelsCard
          channels={channels.data}
          // The answer a server-rendered page arrived with is shown at once (SWR counts it as loading).
          isLoading={channels.isLoading && channels.data === undefined}
          failed={Boolean(channels.error)}
          isAdmin={isAdmin}
          refresh={() => channels.mutate()}
        />
      </Stack>
    </PageContainer>
  );
}
