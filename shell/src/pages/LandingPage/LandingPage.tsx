import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Container, Stack, Typography } from '@mui/material';
import { AfterFirstPaint, FeaturedCarousel, MainLandmark } from '@radar/shared-ui';
import { useDashboardStats, useFeaturedRecent } from '../../api/hooks.js';
import { Benefits } from './Benefits.js';
import { RoadmapCount } from './RoadmapCount.js';
import { SourceCards } from './SourceCards.js';
import { StatusBadges } from './StatusBadges.js';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ py: { xs: 4, md: 6 } }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700, mb: 3 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** The landing page (/). */
export function LandingPage() {
  const stats = useDashboardStats();
  const featured = useFeaturedRecent();
  const featuredItems = featured.data ?? [];
  return (
    <Container component={MainLandmark} maxWidth="lg" sx={{ py: { xs: 4, md: 8 } }}>
      {stats.data?.isDemoData ? (
        <Alert severity="info" sx={{ mb: 3 }}>
          <strong>Demo data.</strong> The items shown are sample data, not the live roadmap and Message Center.
        </Alert>
      ) : null}
      <Box component="section" aria-label="Introduction" sx={{ textAlign: { md: 'center' }, maxWidth: 820, mx: 'auto' }}>
        <Typography variant="h2" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '2.25rem', md: '3.5rem' }, mb: 2 }}>
          Every Microsoft 365 change, in one place
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary" sx={{ mb: 4, fontWeight: 400 }}>
          M365 Radar merges the AI at Work Roadmap (formerly the Microsoft 365 Roadmap) and the Message Center into one searchable list, so admins see what is
          coming, what is rolling out and what changed this week.
        </Typography>
        <RoadmapCount stats={stats.data} failed={Boolean(stats.error)} />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center', mb: 4 }}>
          <Button component={RouterLink} to="/dashboard" variant="contained" size="large">
            Open Dashboard
          </Button>
          <Button component={RouterLink} to="/weekly-digest" variant="outlined" size="large">
            See this week’s digest
          </Button>
        </Stack>
        <StatusBadges stats={stats.data} failed={Boolean(stats.error)} />
      </Box>
      {/* Below the first screenful: rendered right after the first paint (useAfterFirstPaint). */}
      <AfterFirstPaint>
        <Section title="Two sources, one view">
          <SourceCards stats={stats.data} />
        </Section>
        {featuredItems.length ? (
          <Section title="Featured">
            <FeaturedCarousel items={featuredItems} label="Featured items" />
          </Section>
        ) : null}
        <Section title="Why admins use M365 Radar">
          <Benefits />
        </Section>
        <Box component="section" aria-label="Get started" sx={{ textAlign: 'center', py: 4 }}>
          <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
            Ready to see what changed?
          </Typography>
          <Button component={RouterLink} to="/dashboard" variant="contained" size="large">
            Start Exploring
          </Button>
        </Box>
      </AfterFirstPaint>
    </Container>
  );
}
