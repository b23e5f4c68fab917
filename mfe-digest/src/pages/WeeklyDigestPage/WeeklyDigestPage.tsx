import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Container, Paper, Stack, Typography } from '@mui/material';
import type { WeeklyDigestResponse } from '@radar/contracts';
import { Deferred, FeaturedCarousel, MainLandmark, lazyNamed } from '@radar/shared-ui';
import { useFeaturedForWeek, useWeeklyDigest } from '../../api/digest.js';
import { DigestStats, digestCounts } from '../../components/DigestStats/index.js';
import { IncidentDigestTable, MessageDigestTable, RoadmapDigestTable } from '../../components/DigestItemTables/index.js';

// Fetched the first time a visitor opens it.
const DigestSignupDialog = lazyNamed(() => import('../../components/DigestSignupDialog/DigestSignupDialog.js'), 'DigestSignupDialog');

export const EMPTY_DIGEST_TEXT = 'No new or updated Microsoft 365 items found in the past 7 days.';

function SignupCallToAction({ onOpen }: { onOpen: () => void }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
      <Box>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Get this digest by e-mail
        </Typography>
        <Typography variant="body2" color="text.secondary">
          A summary of the week&apos;s Microsoft 365 changes, every Sunday.
        </Typography>
      </Box>
      <Button variant="contained" onClick={onOpen} aria-haspopup="dialog">
        Sign Up for Weekly Digest
      </Button>
    </Paper>
  );
}

function DigestBody({ digest }: { digest: WeeklyDigestResponse }) {
  const featured = useFeaturedForWeek(digest.weekRange);
  const featuredItems = featured.data ?? [];
  const counts = digestCounts(digest, featured.error ? null : featuredItems.length);
  const isEmpty = counts.totalActivity === 0;

  return (
    <Stack spacing={4}>
      <DigestStats counts={counts} featuredLoading={featured.isLoading} />
      {featuredItems.length > 0 ? (
        <Box component="section" aria-labelledby="digest-featured-heading">
          <Typography id="digest-featured-heading" variant="h5" component="h2" sx={{ mb: 2, fontWeight: 600 }}>
            Featured This Week
          </Typography>
          <FeaturedCarousel items={featuredItems} label="Featured items this week" />
        </Box>
      ) : null}
      {isEmpty ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">{EMPTY_DIGEST_TEXT}</Typography>
        </Paper>
      ) : (
        <>
          <Box component="section" aria-labelledby="digest-roadmap-heading">
            <Typography id="digest-roadmap-heading" variant="h5" component="h2" sx={{ mb: 2, fontWeight: 600 }}>
              AI at Work Roadmap
            </Typography>
            <RoadmapDigestTable title="New Roadmap Items" items={digest.roadmap.newItems} />
            <RoadmapDigestTable title="Updated Roadmap Items" items={digest.roadmap.changedItems} />
          </Box>
          <Box component="section" aria-labelledby="digest-messages-heading">
            <Typography id="digest-messages-heading" variant="h5" component="h2" sx={{ mb: 2, fontWeight: 600 }}>
              Message Center
            </Typography>
            <MessageDigestTable title="New Message Center Posts" items={digest.messageCenter.newItems} />
            <MessageDigestTable title="Updated Message Center Posts" items={digest.messageCenter.updatedItems} />
          </Box>
          {digest.serviceHealth?.incidents.length ? (
            <Box component="section" aria-labelledby="digest-health-heading">
              <Typography id="digest-health-heading" variant="h5" component="h2" sx={{ mb: 2, fontWeight: 600 }}>
                Service Health
              </Typography>
              <IncidentDigestTable title="Incidents This Week" items={digest.serviceHealth.incidents} />
            </Box>
          ) : null}
        </>
      )}
    </Stack>
  );
}

/** /weekly-digest: what changed in Microsoft 365 over the past 7 days, plus the digest signup. */
export function WeeklyDigestPage() {
  const digest = useWeeklyDigest();
  const [signupOpen, setSignupOpen] = useState(false);
  const range = digest.data?.weekRange;
  // Try Again says it is at work until the digest answers (the alert stays while the error does).
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    setRetrying(true);
    try {
      await digest.mutate();
    } finally {
      setRetrying(false);
    }
  };

  return (
    <Container component={MainLandmark} maxWidth="lg" sx={{ py: 4 }} aria-busy={digest.isLoading}>
      <Stack spacing={3}>
        <Box>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            Weekly Digest
          </Typography>
          {range ? (
            <>
              <Typography color="text.secondary" data-testid="week-range">
                {range.startFormatted} – {range.endFormatted}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Next digest: {range.nextUpdateFormatted}
              </Typography>
            </>
          ) : (
            <Typography color="text.secondary">New and updated Microsoft 365 items from the past 7 days. The digest is e-mailed every Sunday.</Typography>
          )}
        </Box>

        <SignupCallToAction onOpen={() => setSignupOpen(true)} />

        {digest.error ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" disabled={retrying} onClick={() => void retry()}>
                {retrying ? 'Retrying...' : 'Try Again'}
              </Button>
            }
          >
            {digest.error instanceof Error ? digest.error.message : String(digest.error)}
          </Alert>
        ) : digest.data ? (
          <DigestBody digest={digest.data} />
        ) : (
          <Box role="status" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 8 }}>
            <CircularProgress size={28} aria-hidden />
            <Typography color="text.secondary">Loading weekly digest...</Typography>
          </Box>
        )}
      </Stack>
      <Deferred open={signupOpen}>
        <DigestSignupDialog open={signupOpen} onClose={() => setSignupOpen(false)} />
      </Deferred>
    </Container>
  );
}
