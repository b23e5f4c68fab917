import { useState } from 'react';
import { Alert, Box, Button, Divider, FormControl, InputLabel, MenuItem, Paper, Select, Stack, Typography } from '@mui/material';
import {
  TRIAGE_PRIORITIES,
  TRIAGE_PRIORITY_LABELS,
  TRIAGE_STATES,
  TRIAGE_STATE_LABELS,
  type TriagePriority,
  type TriageRecordResponse,
  type TriageState,
  type TriageUpdate,
  type UnifiedItem,
} from '@radar/contracts';
import { formatChangeDate, serverMessageOf, useToast } from '@radar/shared-ui';
import { TrackerTasks } from '../TrackerTasks/index.js';
import { openTriage, saveTriage, useTriageRecord, useTriageRefresh } from '../../api/triage.js';
import { ClosedBeforeTracking } from './ClosedBeforeTracking.js';
import { Conversation } from './Conversation.js';
import { licenceText } from './licence-text.js';
import { NoLongerApplies } from './NoLongerApplies.js';
import { NotInTriage } from './NotInTriage.js';
import { SuggestBox } from './SuggestBox.js';
import { DueField, OwnerField } from './TriageFieldControls.js';

export { licenceText } from './licence-text.js';

const RULE_FIELD_LABELS = { owner: 'Owner', state: 'State', priority: 'Priority' } as const;

export interface TriagePanelProps {
  item: UnifiedItem;
}

/**
 * The item dialog's Triage panel for signed-in users: state, owner, due date and priority (each default saying where
 * it came from) and the conversation. Moderators and admins change everything; the owner the state and the
 * conversation; everyone else reads. Each change is saved at once; the server decides and logs it.
 */
export function TriagePanel({ item }: TriagePanelProps) {
  const [tenant, setTenant] = useState<number | undefined>(undefined);
  const record = useTriageRecord(item, tenant);
  const refresh = useTriageRefresh();
  const { toast } = useToast();
  const data = record.data;

  const save = async (change: TriageUpdate) => {
    if (!data) return;
    try {
      await saveTriage(item, data.tenantId, change);
      await refresh();
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? 'Could not save the triage', variant: 'destructive' });
    }
  };

  /** "Triage this": opens the record of a roadmap item nobody opened, and shows the record answered. */
  const open = async () => {
    try {
      const opened = await openTriage(item);
      await record.mutate(opened, { revalidate: false });
      await refresh();
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? 'Could not open the triage', variant: 'destructive' });
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={`triage-${item.id}`} sx={{ p: 2, mb: 2 }}>
      <Typography id={`triage-${item.id}`} variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
        Triage
      </Typography>
      {record.error ? (
        <Alert severity="error">{serverMessageOf(record.error) ?? 'Could not load the triage.'}</Alert>
      ) : !data ? (
        <Typography color="text.secondary">Loading…</Typography>
      ) : (
        <>
          {data.opened ? (
            <>
              <NoLongerApplies item={item} record={data} onSave={save} />
              <ClosedBeforeTracking record={data} onSave={save} />
            </>
          ) : (
            <NotInTriage record={data} onOpen={open} />
          )}
          <TriageFields record={data} onSave={save} onTenant={setTenant} />
          {data.opened && data.canEdit === 'all' ? <SuggestBox item={item} record={data} onApply={save} /> : null}
          {data.opened ? <TrackerTasks item={item} tenantId={data.tenantId} /> : null}
        </>
      )}
      {data ? (
        <>
          <Divider sx={{ my: 2 }} />
          <Conversation item={item} record={data} onChanged={refresh} />
        </>
      ) : null}
    </Paper>
  );
}

function TriageFields({
  record,
  onSave,
  onTenant,
}: {
  record: TriageRecordResponse;
  onSave: (change: TriageUpdate) => Promise<void>;
  onTenant: (id: number) => void;
}) {
  // Until a record is opened nothing is stored: its defaults are shown read-only ("Triage this" opens it).
  const canEdit = record.opened ? record.canEdit : 'none';
  const all = canEdit === 'all';
  return (
    <Stack spacing={2}>
      {record.tenants.length > 1 ? (
        <FormControl size="small" sx={{ maxWidth: 320 }}>
          <InputLabel id="triage-tenant-label">Tenant</InputLabel>
          <Select labelId="triage-tenant-label" label="Tenant" value={record.tenantId ?? ''} onChange={(e) => onTenant(Number(e.target.value))}>
            {record.tenants.map((t) => (
              <MenuItem key={t.id} value={t.id}>
                {t.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      ) : record.tenantName ? (
        <Typography variant="body2" color="text.secondary">
          Tenant: {record.tenantName}
        </Typography>
      ) : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormControl size="small">
          <InputLabel id="triage-state-label">State</InputLabel>
          <Select
            labelId="triage-state-label"
            label="State"
            value={record.state}
            disabled={canEdit === 'none'}
            onChange={(e) => void onSave({ state: e.target.value as TriageState })}
          >
            {TRIAGE_STATES.map((s) => (
              <MenuItem key={s} value={s}>
                {TRIAGE_STATE_LABELS[s]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <OwnerField record={record} editable={all} onSave={onSave} />
        <DueField key={`${record.tenantId}:${record.dueDate}`} record={record} editable={all} onSave={onSave} />
        <Stack spacing={0.5}>
          <FormControl size="small">
            <InputLabel id="triage-priority-label">Priority</InputLabel>
            <Select
              labelId="triage-priority-label"
              label="Priority"
              value={record.priority}
              disabled={!all}
              onChange={(e) => void onSave({ priority: e.target.value as TriagePriority })}
            >
              {TRIAGE_PRIORITIES.map((p) => (
                <MenuItem key={p} value={p}>
                  {TRIAGE_PRIORITY_LABELS[p]}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Typography variant="caption" color="text.secondary" sx={{ pl: 1.5 }}>
            {record.priorityReason}
          </Typography>
          {all && record.prioritySource === 'manual' ? (
            <Button size="small" sx={{ alignSelf: 'flex-start' }} onClick={() => void onSave({ reset: ['priority'] })}>
              Use the default priority
            </Button>
          ) : null}
        </Stack>
      </Box>
      <Typography variant="body2" data-licence={record.licence.status}>
        {licenceText(record.licence)}
      </Typography>
      {record.setByRules.map((r) => (
        <Typography key={r.field} variant="caption" color="text.secondary">
          {RULE_FIELD_LABELS[r.field]} set by the rule “{r.ruleName}”
        </Typography>
      ))}
      {record.updatedBy ? (
        <Typography variant="caption" color="text.secondary">
          Last changed by {record.updatedBy}
          {record.updatedAt ? ` on ${formatChangeDate(record.updatedAt)}` : ''}
        </Typography>
      ) : null}
    </Stack>
  );
}
