import { useState } from 'react';
import { Alert, Button } from '@mui/material';
import type { TriageRecordResponse } from '@radar/contracts';

/**
 * A roadmap item nobody opened for triage: nothing is stored and the panel shows the defaults a record would start
 * with. Moderators and admins open it with "Triage this".
 */
export function NotInTriage({ record, onOpen }: { record: TriageRecordResponse; onOpen: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      await onOpen();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      action={
        record.canEdit === 'all' ? (
          <Button color="inherit" size="small" disabled={busy} onClick={() => void open()}>
            {busy ? 'Opening…' : 'Triage this'}
          </Button>
        ) : undefined
      }
    >
      Not in triage yet. Roadmap items are triaged when someone opens them, a rule matches them, or a triaged post announces them.
    </Alert>
  );
}
