import { Skeleton, Typography } from '@mui/material';
import type { DashboardStatsResponse } from '@radar/contracts';

/**
 * Where the first design's landing page claimed "1,800+ roadmap items", the live count from GET /api/dashboard/stats
 * (docs/architecture.md: landing counts are live). Without stats the sentence stays true without a number.
 */
export function RoadmapCount({ stats, failed }: { stats: DashboardStatsResponse | undefined; failed: boolean }) {
  if (!stats && !failed) return <Skeleton width={320} sx={{ mx: { md: 'auto' }, mb: 3 }} aria-label="Loading the roadmap item count" />;
  return (
    <Typography component="p" sx={{ mb: 3, fontWeight: 600 }} data-testid="roadmap-count">
      {stats ? (
        <>
          Tracking <strong>{stats.bySource.roadmap.toLocaleString('en-US')}</strong> roadmap items
          {stats.bySource.health ? ', ' : ' and '}
          <strong>{stats.bySource.messages.toLocaleString('en-US')}</strong> Message Center announcements
          {stats.bySource.health ? (
            <>
              {' '}
              and <strong>{stats.bySource.health.toLocaleString('en-US')}</strong> Service Health {stats.bySource.health === 1 ? 'issue' : 'issues'}
            </>
          ) : null}
        </>
      ) : (
        'Tracking every roadmap item and Message Center announcement'
      )}
    </Typography>
  );
}
