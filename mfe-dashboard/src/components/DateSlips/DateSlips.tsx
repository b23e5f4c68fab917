import { Box, Stack, Typography } from '@mui/material';
import type { ChangeHistoryEntry, ReleaseMoveStats } from '@radar/contracts';
import { formatDate } from '@radar/shared-ui';
import { datedMoves, moveSummaries, shiftText } from './date-slips.js';

export interface DateSlipsProps {
  stats: ReleaseMoveStats | null | undefined;
  /** The item's change history (newest first), for the dated list; undefined while it loads. */
  history: ChangeHistoryEntry[] | undefined;
}

/** How often a roadmap item's GA and preview dates moved, and when: "GA date moved 3 times, +5 months since first seen". */
export function DateSlips({ stats, history }: DateSlipsProps) {
  const summaries = moveSummaries(stats);
  if (summaries.length === 0) return null;
  const moves = datedMoves(history);
  return (
    <Box component="section" aria-labelledby="date-slips-heading">
      <Typography id="date-slips-heading" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        Release Date Changes
      </Typography>
      <Stack spacing={0.5}>
        {summaries.map((text) => (
          <Typography key={text} variant="body2" sx={{ fontWeight: 600 }}>
            {text}
          </Typography>
        ))}
      </Stack>
      {moves.length > 0 ? (
        <Box component="ol" aria-label="Release date moves" sx={{ pl: 2.5, mt: 1, mb: 0 }}>
          {moves.map((m) => (
            <Typography component="li" variant="body2" key={`${m.historyId}-${m.label}`}>
              {`${formatDate(m.changeDate)}: ${m.label} ${m.from} → ${m.to}${shiftText(m.shiftMonths)}`}
            </Typography>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
