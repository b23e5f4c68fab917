import { useState } from 'react';
import { Alert, Button } from '@mui/material';
import { OPEN_TRIAGE_STATES, type TriageRecordResponse, type TriageUpdate, type UnifiedItem } from '@radar/contracts';

/**
 * An open record of an item Microsoft no longer lists (an expired post, a roadmap item dropped from the feed): it
 * stays in the queues until someone closes it, and this closes it in one click as Not relevant.
 */
export function NoLongerApplies({
  item,
  record,
  onSave,
}: {
  item: UnifiedItem;
  record: TriageRecordResponse;
  onSave: (change: TriageUpdate) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const open = (OPEN_TRIAGE_STATES as readonly string[]).includes(record.state);
  if (!item.isRemoved || !open || record.canEdit === 'none') return null;
  const gone = item.source === 'roadmap' ? 'Microsoft removed this item from the roadmap' : 'This post has expired';
  const close = async () => {
    setBusy(true);
    try {
      await onSave({ state: 'not_relevant' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert
      severity="warning"
      action={
        <Button color="inherit" size="small" disabled={busy} onClick={() => void close()}>
          Close: no longer applies
        </Button>
      }
    >
      {gone}: the record stays open in the queues until someone closes it.
    </Alert>
  );
}
