import { Box } from '@mui/material';
import { formatCount } from '@radar/contracts';
import { changeHealthBandOf } from './change-health.js';

const WIDTH = 200;
const HEIGHT = 40;
const PAD = 3;

/** The accessible name of a trend: "Score over the last 90 days: from 64 to 82". */
export function trendLabel(trend: readonly { score: number }[]): string {
  const first = trend[0];
  const last = trend[trend.length - 1];
  if (!first || !last) return 'No daily scores yet';
  return `Score over the last ${formatCount(trend.length, 'day')}: from ${first.score} to ${last.score}`;
}

/** A tiny line of the daily scores on a fixed 0–100 scale, coloured by the band of the last day. */
export function ScoreSparkline({ trend }: { trend: readonly { date: string; score: number }[] }) {
  const last = trend[trend.length - 1];
  if (!last) return null;
  const y = (score: number) => PAD + ((100 - score) / 100) * (HEIGHT - 2 * PAD);
  const x = (i: number) => (trend.length === 1 ? WIDTH / 2 : PAD + (i / (trend.length - 1)) * (WIDTH - 2 * PAD));
  return (
    <Box
      component="svg"
      role="img"
      aria-label={trendLabel(trend)}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      // The colour through the theme's CSS variables (right in either mode from the first paint).
      sx={{ color: `${changeHealthBandOf(last.score)}.main`, display: 'block', maxWidth: '100%' }}
    >
      {/* The 50 and 80 band lines, faint. */}
      <Box component="g" sx={{ color: 'divider' }}>
        {[50, 80].map((s) => (
          <line key={s} x1={0} x2={WIDTH} y1={y(s)} y2={y(s)} stroke="currentColor" strokeDasharray="2 3" />
        ))}
      </Box>
      {trend.length === 1 ? (
        <circle cx={x(0)} cy={y(last.score)} r={2.5} fill="currentColor" />
      ) : (
        <polyline
          points={trend.map((d, i) => `${x(i).toFixed(1)},${y(d.score).toFixed(1)}`).join(' ')}
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      )}
    </Box>
  );
}
