import { Box, useMediaQuery, useTheme } from '@mui/material';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CurrentStatusAnalytics } from '@radar/contracts';

type Row = CurrentStatusAnalytics['productBreakdown'][number];

/** Characters of a product name per tick line; longer names wrap to a second line and are cut there, whole in a tooltip. */
const LINE_CHARS = 14;

/** A product name in at most two lines of about LINE_CHARS characters, words kept whole where they fit. */
export function tickLines(name: string, chars = LINE_CHARS): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of name.split(/\s+/)) {
    if (!line) line = word;
    else if (`${line} ${word}`.length <= chars) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= 2) return lines.map((l) => (l.length > chars + 4 ? `${l.slice(0, chars + 3)}…` : l));
  const second = lines.slice(1).join(' ');
  return [lines[0] ?? '', `${second.slice(0, chars - 1)}…`];
}

interface TickProps {
  x?: number;
  y?: number;
  payload?: { value: string };
  fill: string;
  vertical: boolean;
}

/** A category tick: the name wrapped (or cut) with the whole name as its SVG title, in the theme's text colour. */
function ProductTick({ x = 0, y = 0, payload, fill, vertical }: TickProps) {
  const name = payload?.value ?? '';
  const lines = vertical ? [name.length > 22 ? `${name.slice(0, 21)}…` : name] : tickLines(name);
  return (
    <g transform={`translate(${x},${y})`}>
      <title>{name}</title>
      <text x={0} y={vertical ? 0 : 12} dy={vertical ? 4 : 0} textAnchor={vertical ? 'end' : 'middle'} fill={fill} fontSize={12}>
        {lines.map((line, i) => (
          <tspan key={i} x={vertical ? -4 : 0} dy={i === 0 ? 0 : 14}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}

/**
 * Items per product, stacked by source, drawn in the theme's colours (ticks, grid, tooltip and legend follow light and
 * dark). Wide screens: one column per product, names wrapped under it. Below the md breakpoint a horizontal bar per
 * product, names beside the bars, so twelve names never overlap on a phone.
 */
export function ProductBreakdownChart({ rows }: { rows: Row[] }) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const text = theme.palette.text.secondary;
  const axis = { stroke: theme.palette.divider, tick: { fill: text, fontSize: 12 } };
  const tooltip = {
    contentStyle: { backgroundColor: theme.palette.background.paper, borderColor: theme.palette.divider, color: theme.palette.text.primary },
    labelStyle: { color: theme.palette.text.primary },
    cursor: { fill: theme.palette.action.hover },
  };
  const bars = [
    <Bar key="roadmap" dataKey="roadmapCount" name="Roadmap" stackId="items" fill={theme.palette.primary.main} />,
    <Bar key="messages" dataKey="messageCenterCount" name="Message Center" stackId="items" fill={theme.palette.secondary.main} />,
  ];
  return (
    <Box
      sx={{ width: '100%', height: narrow ? Math.max(240, rows.length * 36 + 80) : 380 }}
      role="img"
      aria-label={`Bar chart of items per product: ${rows.map((r) => `${r.product} ${r.total}`).join(', ')}`}
      data-layout={narrow ? 'horizontal-bars' : 'columns'}
    >
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        {narrow ? (
          <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} horizontal={false} />
            <XAxis type="number" allowDecimals={false} {...axis} />
            <YAxis type="category" dataKey="product" width={140} interval={0} stroke={theme.palette.divider} tick={<ProductTick fill={text} vertical />} />
            <Tooltip {...tooltip} />
            <Legend verticalAlign="top" wrapperStyle={{ color: theme.palette.text.primary }} />
            {bars}
          </BarChart>
        ) : (
          <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
            <XAxis
              dataKey="product"
              interval={0}
              height={48}
              padding={{ left: 8, right: 8 }}
              stroke={theme.palette.divider}
              tick={<ProductTick fill={text} vertical={false} />}
            />
            <YAxis allowDecimals={false} {...axis} />
            <Tooltip {...tooltip} />
            <Legend verticalAlign="top" wrapperStyle={{ color: theme.palette.text.primary }} />
            {bars}
          </BarChart>
        )}
      </ResponsiveContainer>
    </Box>
  );
}
