import { useState } from 'react';
import { Alert, Box, Button, Divider, FormControl, InputLabel, MenuItem, Paper, Select, Stack, TextField, Typography } from '@mui/material';
import {
  TRIAGE_COMMENT_MAX_CHARS,
  TRIAGE_PRIORITIES,
  TRIAGE_PRIORITY_LABELS,
  TRIAGE_STATES,
  TRIAGE_STATE_LABELS,
  type TriageComment,
  type TriageLicence,
  type TriagePriority,
  type TriageRecordResponse,
  type TriageState,
  type TriageSuggestion,
  type TriageUpdate,
  type UnifiedItem,
} from '@radar/contracts';
import { formatChangeDate, serverMessageOf, useToast } from '@radar/shared-ui';
import { PeoplePicker } from '../PeoplePicker/index.js';
import { TrackerTasks } from '../TrackerTasks/index.js';
import {
  addTriageComment,
  deleteTriageComment,
  editTriageComment,
  saveTriage,
  suggestTriage,
  useTriageComments,
  useTriageRecord,
  useTriageRefresh,
} from '../../api/triage.js';

const RULE_FIELD_LABELS = { owner: 'Owner', state: 'State', priority: 'Priority' } as const;

/** Whether the tenants license the item, in words ("unknown" said as such, never taken for "not licensed"). */
export function licenceText(licence: TriageLicence): string {
  switch (licence.status) {
    case 'licensed':
      return `Licensed: ${licence.tenants.join(', ')}`;
    case 'not_licensed':
      return 'Not licensed by your tenants';
    case 'unknown':
      return licence.unknownProducts.length
        ? `Licence unknown: no licence rule knows ${licence.unknownProducts.join(', ')}`
        : 'Licence unknown: the item names no product';
    case 'not_read':
      return 'Licence not known: no tenant’s licences were read';
  }
}

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
          <TriageFields record={data} onSave={save} onTenant={setTenant} />
          {data.canEdit === 'all' ? <SuggestBox item={item} record={data} onApply={save} /> : null}
          <TrackerTasks item={item} tenantId={data.tenantId} />
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
  const all = record.canEdit === 'all';
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
            disabled={record.canEdit === 'none'}
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

/**
 * "Suggest": a proposed state, owner and priority with its reason (from the AI service when one is configured, else
 * from the rules and past assignments, and it says which). Nothing changes until Apply.
 */
function SuggestBox({ item, record, onApply }: { item: UnifiedItem; record: TriageRecordResponse; onApply: (change: TriageUpdate) => Promise<void> }) {
  const { toast } = useToast();
  const [suggestion, setSuggestion] = useState<TriageSuggestion | null>(null);
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    setBusy(true);
    try {
      setSuggestion(await suggestTriage(item, record.tenantId));
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? 'Could not get a suggestion', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  if (!suggestion) {
    return (
      <Button size="small" variant="outlined" sx={{ mt: 1.5 }} disabled={busy} onClick={() => void ask()}>
        {busy ? 'Suggesting…' : 'Suggest'}
      </Button>
    );
  }
  return (
    <Alert
      severity="info"
      sx={{ mt: 1.5 }}
      aria-label="Suggestion"
      action={
        <Stack direction="row" spacing={1}>
          <Button
            color="inherit"
            size="small"
            onClick={() =>
              void onApply({ state: suggestion.state, priority: suggestion.priority, ...(suggestion.owner ? { ownerId: suggestion.owner.id } : {}) }).then(() =>
                setSuggestion(null),
              )
            }
          >
            Apply
          </Button>
          <Button color="inherit" size="small" onClick={() => setSuggestion(null)}>
            Dismiss
          </Button>
        </Stack>
      }
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {TRIAGE_STATE_LABELS[suggestion.state]} · {suggestion.owner ? suggestion.owner.name : 'No owner'} · {TRIAGE_PRIORITY_LABELS[suggestion.priority]}{' '}
        priority
      </Typography>
      <Typography variant="body2">{suggestion.reason}</Typography>
      <Typography variant="caption" color="text.secondary">
        {suggestion.source === 'ai'
          ? 'Suggested by AI.'
          : (suggestion.note ?? 'Suggested from the triage rules and past assignments (no AI service is configured).')}
      </Typography>
    </Alert>
  );
}

/** Due date: saved when the field is left; the default's reason below it. Keyed by the saved date, so it restarts from it. */
function DueField({ record, editable, onSave }: { record: TriageRecordResponse; editable: boolean; onSave: (change: TriageUpdate) => Promise<void> }) {
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
      {all && record.dueDateSource === 'manual' ? (
        <Button size="small" sx={{ alignSelf: 'flex-start' }} onClick={() => void onSave({ reset: ['dueDate'] })}>
          Use the default due date
        </Button>
      ) : null}
    </Stack>
  );
}

/** Owner: type-ahead over the users for moderators and admins; the owner's name for everyone else. */
function OwnerField({ record, editable, onSave }: { record: TriageRecordResponse; editable: boolean; onSave: (change: TriageUpdate) => Promise<void> }) {
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
function Conversation({ item, record, onChanged }: { item: UnifiedItem; record: TriageRecordResponse; onChanged: () => Promise<unknown> }) {
  const comments = useTriageComments(item, record.tenantId);
  const { toast } = useToast();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const mayWrite = record.canEdit !== 'none';

  const run = async (action: () => Promise<unknown>, failure: string) => {
    setBusy(true);
    try {
      await action();
      await Promise.all([comments.mutate(), onChanged()]);
      return true;
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? failure, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle2" component="h4">
        Conversation
      </Typography>
      {comments.data?.comments.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No comments yet.
        </Typography>
      ) : null}
      {comments.data?.comments.map((c) => (
        <CommentView
          key={c.id}
          comment={c}
          busy={busy}
          onEdit={(body) => run(() => editTriageComment(item, c.id, body), 'Could not save the comment')}
          onDelete={() => run(() => deleteTriageComment(item, c.id), 'Could not delete the comment')}
        />
      ))}
      {mayWrite ? (
        <Stack spacing={1}>
          <TextField
            label="Add a comment"
            multiline
            minRows={2}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            helperText="Plain text. Mention someone with @ and their e-mail address."
            slotProps={{ htmlInput: { maxLength: TRIAGE_COMMENT_MAX_CHARS } }}
          />
          <Button
            variant="contained"
            size="small"
            sx={{ alignSelf: 'flex-start' }}
            disabled={busy || !draft.trim()}
            onClick={() => void run(() => addTriageComment(item, record.tenantId, draft.trim()), 'Could not add the comment').then((ok) => ok && setDraft(''))}
          >
            Comment
          </Button>
        </Stack>
      ) : (
        <Typography variant="caption" color="text.secondary">
          The owner, moderators and admins take part in the conversation.
        </Typography>
      )}
    </Stack>
  );
}

function CommentView({
  comment,
  busy,
  onEdit,
  onDelete,
}: {
  comment: TriageComment;
  busy: boolean;
  onEdit: (body: string) => Promise<boolean>;
  onDelete: () => Promise<boolean>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <Box component="article" aria-label={`Comment by ${comment.author?.name ?? 'a former user'}`} sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}>
      <Typography variant="caption" color="text.secondary">
        {comment.author?.name ?? 'A former user'} · {formatChangeDate(comment.createdAt)}
        {comment.editedAt && !comment.deletedAt ? ' · edited' : ''}
      </Typography>
      {comment.deletedAt ? (
        <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
          Comment deleted
        </Typography>
      ) : editing !== null ? (
        <Stack spacing={1} sx={{ mt: 0.5 }}>
          <TextField
            multiline
            minRows={2}
            label="Edit comment"
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            slotProps={{ htmlInput: { maxLength: TRIAGE_COMMENT_MAX_CHARS } }}
          />
          <Stack direction="row" spacing={1}>
            <Button
              size="small"
              variant="contained"
              disabled={busy || !editing.trim()}
              onClick={() => void onEdit(editing.trim()).then((ok) => ok && setEditing(null))}
            >
              Save
            </Button>
            <Button size="small" onClick={() => setEditing(null)}>
              Cancel
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment.body}
        </Typography>
      )}
      {comment.mine && !comment.deletedAt && editing === null ? (
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={() => setEditing(comment.body)}>
            Edit
          </Button>
          <Button size="small" color="error" disabled={busy} onClick={() => void onDelete()}>
            Delete
          </Button>
        </Stack>
      ) : null}
    </Box>
  );
}
