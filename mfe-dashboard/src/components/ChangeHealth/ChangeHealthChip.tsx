import { useId, useState } from 'react';
import { Box, Chip, Link, Popover, Skeleton, Stack, Typography } from '@mui/material';
import { formatCount, routes } from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';
import { CHANGE_HEALTH_NOTE, changeHealthBandOf, costLine } from './change-health.js';
import { ScoreSparkline } from './ScoreSparkline.js';

/**
 * GET /api/triage/health: the score of every tenant the caller may see. Its key starts with /api/triage, so a triage
 * change (useTriageRefresh) refetches it too.
 */
export function useChangeHealth() {
  return useEndpoint(routes.triage.health, {});
}

export interface ChangeHealthChipProps {
  /** Switches the list to the Overdue view (as its view button does). */
  onShowOverdue: () => void;
}

/**
 * "Change health 82/100" beside the triage views (signed-in users), coloured by its band; a click opens what costs
 * its points, the open count, how the score is made and its daily trend.
 */
export function ChangeHealthChip({ onShowOverdue }: ChangeHealthChipProps) {
  const { data, error } = useChangeHealth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const titleId = useId();
  // The score is a summary beside the views: when it cannot be read, the views stand alone.
  if (!data) return error ? null : <Skeleton variant="rounded" width={170} height={32} aria-hidden />;
  const open = anchor !== null;
  const band = changeHealthBandOf(data.score);
  const close = () => setAnchor(null);
  return (
    <>
      <Chip
        color={band}
        label={`Change health ${data.score}/100`}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        sx={{ fontWeight: 600 }}
      />
      <Popover
        id={popoverId}
        open={open}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        transformOrigin={{ vertical: 'top', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { p: 2, width: 340, maxWidth: 'calc(100vw - 32px)' } } }}
      >
        <Stack spacing={1.5}>
          <Box>
            <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
              Change health
            </Typography>
            <Typography component="p" variant="h5" sx={{ fontWeight: 700, color: `${band}.main` }}>
              {data.score}/100
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {formatCount(data.open, 'open item')}
            </Typography>
          </Box>
          <Box>
            <Typography variant="subtitle2" component="h3" id={`${titleId}-costs`}>
              What costs points
            </Typography>
            {data.costs.length ? (
              <Box component="ul" aria-labelledby={`${titleId}-costs`} sx={{ m: 0, pl: 2.5, typography: 'body2' }}>
                {data.costs.map((cost) => (
                  <li key={cost.kind}>{costLine(cost)}</li>
                ))}
              </Box>
            ) : (
              <Typography variant="body2">Nothing costs points</Typography>
            )}
          </Box>
          <Typography variant="caption" color="text.secondary" component="p">
            {CHANGE_HEALTH_NOTE}
          </Typography>
          {data.trend.length ? (
            <ScoreSparkline trend={data.trend} />
          ) : (
            <Typography variant="caption" color="text.secondary" component="p">
              No daily scores yet: the trend fills from the first daily count.
            </Typography>
          )}
          <Link
            component="button"
            type="button"
            variant="body2"
            sx={{ alignSelf: 'flex-start' }}
            onClick={() => {
              close();
              onShowOverdue();
            }}
          >
            See what is overdue
          </Link>
        </Stack>
      </Popover>
    </>
  );
}
