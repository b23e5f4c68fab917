import { Box, Typography } from '@mui/material';
import { formatCount, routes } from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';
import { AdminData } from '../AdminData/index.js';
import { CHANGE_HEALTH_NOTE, changeHealthBandOf, costLine } from './change-health.js';

/** The tenant choice of the triage chart, as the api's `tenant` query takes it. */
export type TriageTenant = 'all' | 'none' | number;

/** "Change health today: N/100" of the tenant chosen (GET /api/triage/health), with what costs its points under it. */
export function ChangeHealthToday({ tenant }: { tenant: TriageTenant }) {
  const answer = useEndpoint(routes.triage.health, { query: { tenant } });
  return (
    <Box sx={{ mb: 3 }}>
      <AdminData answer={answer} what="change health">
        {(health) => (
          <>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              Change health today:{' '}
              <Box component="span" sx={{ color: `${changeHealthBandOf(health.score)}.main`, fontWeight: 700 }}>
                {health.score}/100
              </Box>
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {formatCount(health.open, 'open item')}. {CHANGE_HEALTH_NOTE}
            </Typography>
            {health.costs.length ? (
              <Box component="ul" aria-label="What costs points" sx={{ my: 1, pl: 3, typography: 'body2' }}>
                {health.costs.map((cost) => (
                  <li key={cost.kind}>{costLine(cost)}</li>
                ))}
              </Box>
            ) : (
              <Typography variant="body2" sx={{ mt: 1 }}>
                Nothing costs points
              </Typography>
            )}
          </>
        )}
      </AdminData>
    </Box>
  );
}
