import { useState } from 'react';
import { Button, Stack, TextField } from '@mui/material';
import type { TriageRecordResponse, TriageUpdate } from '@radar/contracts';
import { PeoplePicker } from '../PeoplePicker/index.js';
import { OverdueChip } from './OverdueChip.js';

export function DueField({ record, editable, onSave }: { record: TriageRecordResponse; editable: boolean; onSave: (change: TriageUpdate) => Promise<void> }) {
  const [due, setDue] = useState(record.dueDate ?? '');
  const all = editable;
  return (
    <Stack spacing={0.5}>
      <TextField
        size="small"
        type="date"
        label="Due date"
        value={due}
        disabled={!all}
        onChange={(e) => setDue(e.target.value)}
        onBlur={() => {
          if (due !== (record.dueDate ?? '')) void onSave({ dueDate: due || null });
        }}
        slotProps={{ inputLabel: { shrink: true } }}
        helperText={record.dueDateReason}
      />
      <OverdueChip record={record} />
      {all && record.dueDateSource === 'manual' ? (
        <Button size="small" sx={{ alignSelf: 'flex-start' }} onClick={() => void onSave({ reset: ['dueDate'] })}>
          Use the default due date
        </Button>
      ) : null}
    </Stack>
  );
}

/** Owner: type-ahead over the users for moderators and admins; the owner's name for everyone else. */
export function OwnerField({ record, editable, onSave }: { record: TriageRecordResponse; editable: boolean; onSave: (change: TriageUpdate) => Promise<void> }) {
  if (!editable) return <TextField size="small" label="Owner" value={record.owner?.name ?? 'Unassigned'} disabled />;
  return (
    <PeoplePicker
      label="Owner"
      placeholder="Unassigned"
      value={record.owner}
      tenant={record.tenantId}
      onChange={(person) => void onSave({ ownerId: person?.id ?? null })}
    />
  );
}

/** The record's comments, oldest first; the author edits or deletes their own. */
