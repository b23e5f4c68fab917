import { useState } from 'react';
import { Box, Button, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { subscribeToWeeklyDigest, unsubscribeFromWeeklyDigest, useDigestStatus, useToast } from '@radar/shared-ui';

/** Weekly Digest subscription. */
export function WeeklyDigestCard() {
  const { data, isLoading: fetching, mutate } = useDigestStatus(true);
  // Loading only while there is nothing to show: the answer a server-rendered page arrived with is shown at once
  // (SWR counts it as loading until its own request returns).
  const isLoading = fetching && data === undefined;
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const subscribed = Boolean(data?.isSubscribed);

  const toggle = async () => {
    setBusy(true);
    try {
      if (subscribed) {
        await unsubscribeFromWeeklyDigest();
        toast({ title: 'Successfully unsubscribed', description: 'You will no longer receive the weekly digest.' });
      } else {
        await subscribeToWeeklyDigest();
        toast({ title: 'Successfully subscribed!', description: 'You will receive weekly digest summaries every Sunday.' });
      }
      await mutate();
    } catch {
      toast(
        subscribed
          ? { title: 'Error', description: 'Failed to unsubscribe from weekly digest', variant: 'destructive' }
          : { title: 'Subscription failed', description: 'Failed to subscribe to weekly digest', variant: 'destructive' },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="digest-card-title">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography id="digest-card-title" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            Weekly Digest
          </Typography>
          {isLoading ? (
            <Skeleton width={100} />
          ) : (
            <Chip label={subscribed ? 'Subscribed' : 'Not subscribed'} color={subscribed ? 'success' : 'default'} size="small" />
          )}
        </Stack>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          A summary of what changed in Microsoft 365, delivered every Sunday{data?.email ? ` to ${data.email}` : ''}.
        </Typography>
        <Box component="ul" sx={{ mt: 0, mb: 2, pl: 3, color: 'text.secondary' }}>
          <li>New and updated roadmap items from the past 7 days</li>
          <li>New and updated Message Center announcements</li>
          <li>Featured items picked by our moderators</li>
          <li>Delivered every Sunday</li>
        </Box>
        <Button variant={subscribed ? 'outlined' : 'contained'} onClick={() => void toggle()} disabled={busy || isLoading}>
          {subscribed ? 'Unsubscribe' : 'Subscribe'}
        </Button>
      </CardContent>
    </Card>
  );
}
