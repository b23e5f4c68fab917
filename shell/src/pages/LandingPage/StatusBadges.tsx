import { Box, Chip, Paper, Skeleton, Typography } from '@mui/material';
import type { DashboardStatsResponse } from '@radar/contracts';
import { formatCount, roadmapStatusColor } from '@radar/shared-ui';

const STATUSES = [
  { name: 'In development', label: 'In Development', color: 'primary' },
  { name: 'Rolling out', label: 'Rolling Out', color: 'success' },
  { name: 'Launched', label: 'Launched', color: 'default' },
] as const;

function countOf(stats: DashboardStatsResponse | undefined, name: string): number | undefined {
  if (!stats) return undefined;
  return stats.byStatus.find((s) => s.name.toLowerCase() === name.toLowerCase())?.count ?? 0;
}

/** Live roadmap status counts from GET /api/dashboard/stats; skeletons while they load, a dash if it fails. */
export function StatusBadges({ stats, failed }: { stats: DashboardStatsResponse | undefined; failed: boolean }) {
  return (
    <Box
      component="ul"
      aria-label="Roadmap items by status"
      sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}
    >
      {STATUSES.map((status) => {
        const count = countOf(stats, status.name);
        return (
          <Paper
            component="li"
            key={status.name}
            variant="outlined"
            sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 1.5 }}
            data-status-color={roadmapStatusColor(status.name)}
          >
            <Chip label={status.label} color={status.color} size="small" />
            <Typography variant="h6" component="span" sx={{ fontWeight: 700 }}>
              {count !== undefined ? formatCount(count) : failed ? '—' : <Skeleton width={48} aria-label={`Loading ${status.label} count`} />}
            </Typography>
          </Paper>
        );
      })}
    </Box>
  );
}
