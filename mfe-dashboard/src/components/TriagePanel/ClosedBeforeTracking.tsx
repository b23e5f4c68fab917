import { useState } from 'react';
import { Alert, Button } from '@mui/material';
import type { TriageRecordResponse, TriageUpdate } from '@radar/contracts';
import { formatDate } from '@radar/shared-ui';

/**
 * A record closed when triage started, because its item was already past then (never done by anyone). Whoever may
 * change its state reopens it as New.
 */
export function ClosedBeforeTracking({ record, onSave }: { record: TriageRecordResponse; onSave: (change: TriageUpdate) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  if (record.closedReason !== 'before_tracking') return null;
  const reopen = async () => {
    setBusy(true);
    try {
      await onSave({ state: 'new' });
    } finally {
      setBusy(false);
    }
  };
  // The line is a calendar day (YYYY-MM-DD): read and written in UTC, so no time zone moves it a day.
  const started = record.startLine ? ` on ${formatDate(record.startLine, 'UTC')}` : '';
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      action={
        record.canEdit !== 'none' ? (
          <Button color="inherit" size="small" disabled={busy} onClick={() => void reopen()}>
            Reopen
          </Button>
        ) : undefined
      }
    >
      Closed before tracking: this item was already past when triage started{started}.
    </Alert>
  );
}
