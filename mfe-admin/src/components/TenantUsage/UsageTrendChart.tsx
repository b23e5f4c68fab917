import { Box, useTheme } from '@mui/material';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageWorkload } from '@radar/contracts';
import { countText, type TrendRow } from './usage-text.js';

export interface UsageTrendChartProps {
  rows: TrendRow[];
  /** The workloads drawn, each with its name; in this order (and colours). */
  workloads: readonly { workload: UsageWorkload; label: string }[];
}

/**
 * Active users per day of a few workloads, oldest first (the admin's Analytics charts' library, recharts, loaded with
 * this file only when the usage dialog shows a trend). Its accessible name says the span and the last day's counts.
 */
export function UsageTrendChart({ rows, workloads }: UsageTrendChartProps) {
  const theme = useTheme();
  const palette = [
    theme.palette.primary.main,
    theme.palette.secondary.main,
    theme.palette.success.main,
    theme.palette.warning.main,
    theme.palette.info.main,
    theme.palette.error.main,
  ];
  const text = theme.palette.text.secondary;
  const axis = { stroke: theme.palette.divider, tick: { fill: text, fontSize: 12 } };
  const first = rows[0];
  const last = rows[rows.length - 1];
  const lastCounts = workloads
    .filter(({ workload }) => last?.[workload] !== undefined)
    .map(({ workload, label }) => `${label} ${countText(last?.[workload] ?? null)}`)
    .join(', ');
  return (
    <Box
      sx={{ width: '100%', height: 260 }}
      role="img"
      aria-label={`Line chart of active users per day from ${first?.date ?? ''} to ${last?.date ?? ''}; on ${last?.date ?? ''}: ${lastCounts}`}
    >
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={theme.palette.divider} strokeDasharray="3 3" />
          <XAxis dataKey="date" {...axis} />
          <YAxis allowDecimals={false} {...axis} />
          <Tooltip contentStyle={{ backgroundColor: theme.palette.background.paper, borderColor: theme.palette.divider, color: theme.palette.text.primary }} />
          <Legend wrapperStyle={{ color: text }} />
          {workloads.map(({ workload, label }, index) => (
            <Line key={workload} type="monotone" dataKey={workload} name={label} stroke={palette[index % palette.length]} dot={false} connectNulls />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </Box>
  );
}
