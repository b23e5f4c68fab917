import { Box, Typography, useTheme } from '@mui/material';
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TriageAnalyticsResponse } from '@radar/contracts';
import { scoreChartLabel } from './change-health.js';

/**
 * "Change health (0–100)": the score per day on a fixed 0–100 scale, beside the triage counts. A day counted before
 * the score existed has none: a gap, never a zero.
 */
export function ChangeHealthChart({ days }: { days: TriageAnalyticsResponse['days'] }) {
  const theme = useTheme();
  const label = scoreChartLabel(days);
  const text = theme.palette.text.secondary;
  const axis = { stroke: theme.palette.divider, tick: { fill: text, fontSize: 12 } };
  const scoredDays = days.filter((d) => typeof d.score === 'number').length;
  return (
    <Box component="section" aria-labelledby="change-health-chart-title" sx={{ mt: 3 }}>
      <Typography id="change-health-chart-title" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        Change health (0–100)
      </Typography>
      {label === null ? (
        <Typography color="text.secondary">The score is counted once a day: the chart fills from the next count.</Typography>
      ) : (
        <Box sx={{ width: '100%', height: 180 }} role="img" aria-label={label}>
          <ResponsiveContainer width="100%" height="100%" minWidth={0}>
            <LineChart data={days} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
              <CartesianGrid stroke={theme.palette.divider} strokeDasharray="3 3" />
              <XAxis dataKey="date" {...axis} />
              <YAxis domain={[0, 100]} ticks={[0, 50, 80, 100]} allowDecimals={false} {...axis} />
              <Tooltip
                contentStyle={{ backgroundColor: theme.palette.background.paper, borderColor: theme.palette.divider, color: theme.palette.text.primary }}
              />
              {/* The band limits: 80 and up is good, under 50 poor. */}
              <ReferenceLine y={80} stroke={theme.palette.success.main} strokeDasharray="4 4" />
              <ReferenceLine y={50} stroke={theme.palette.warning.main} strokeDasharray="4 4" />
              {/* connectNulls off: the days without a score stay gaps. One scored day is a dot. */}
              <Line type="monotone" dataKey="score" name="Change health" stroke={theme.palette.info.main} dot={scoredDays === 1} connectNulls={false} />
            </LineChart>
          </ResponsiveContainer>
        </Box>
      )}
    </Box>
  );
}
