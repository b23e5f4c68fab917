import { Chip, Tooltip } from '@mui/material';
import type { TriageRecordResponse } from '@radar/contracts';
import { formatDate } from '@radar/shared-ui';

/** "Overdue" beside the due date of an open record whose due date passed; its tooltip says why it was due then. */
export function OverdueChip({ record }: { record: TriageRecordResponse }) {
  if (!record.overdue) return null;
  // The due date is a calendar day (YYYY-MM-DD): formatted in UTC, so no time zone moves it a day.
  const why = record.dueDate ? `Due ${formatDate(record.dueDate, 'UTC')}: ${record.dueDateReason}` : record.dueDateReason;
  return (
    <Tooltip title={why} describeChild>
      <Chip size="small" color="error" label="Overdue" tabIndex={0} sx={{ alignSelf: 'flex-start' }} />
    </Tooltip>
  );
}
