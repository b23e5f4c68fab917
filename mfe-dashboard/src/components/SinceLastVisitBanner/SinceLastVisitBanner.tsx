import { Alert, Button } from '@mui/material';
import type { DashboardVisitResponse } from '@radar/contracts';
import { formatChangeDate, useDisplayTimeZone } from '@radar/shared-ui';

export interface SinceLastVisitBannerProps {
  /** The recorded visit, or what the server render read until it is recorded (null for guests, or with neither). */
  visit: DashboardVisitResponse | null;
  /** The "Since my last visit" filter is on. */
  active: boolean;
  onShow: (show: boolean) => void;
}

const changes = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'change' : 'changes'}`;

/**
 * "N changes since your last visit" for signed-in users, with a button that lists them (the Recent Activity option
 * "Since my last visit"). Nothing on a first visit: there is no previous one to count from.
 */
export function SinceLastVisitBanner({ visit, active, onShow }: SinceLastVisitBannerProps) {
  // UTC in a server render and while hydrating it (the server does not know the reader's zone), theirs after.
  const timeZone = useDisplayTimeZone();
  if (!visit?.lastVisitAt) return null;
  const when = formatChangeDate(visit.lastVisitAt, timeZone);
  const count = visit.changesSinceLastVisit;
  return (
    <Alert
      severity="info"
      variant="outlined"
      aria-live="polite"
      sx={{ mb: 2, alignItems: 'center' }}
      action={
        count > 0 || active ? (
          <Button color="inherit" size="small" onClick={() => onShow(!active)}>
            {active ? 'Show all items' : 'Show changes'}
          </Button>
        ) : undefined
      }
    >
      {count > 0 ? `${changes(count)} since your last visit` : 'No changes since your last visit'}
      {` (${when})`}
      {active ? ' · showing only these' : ''}
    </Alert>
  );
}
