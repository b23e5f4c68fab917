import { useState } from 'react';
import { Alert, Button, Stack, Typography } from '@mui/material';
import {
  TRIAGE_PRIORITY_LABELS,
  TRIAGE_STATE_LABELS,
  type TriageRecordResponse,
  type TriageSuggestion,
  type TriageUpdate,
  type UnifiedItem,
} from '@radar/contracts';
import { serverMessageOf, useToast } from '@radar/shared-ui';
import { suggestTriage } from '../../api/triage.js';

/**
 * "Suggest": a proposed state, owner and priority with its reason (from the AI service when one is configured, else
 * from the rules and past assignments, and it says which). Nothing changes until Apply.
 */
export function SuggestBox({ item, record, onApply }: { item: UnifiedItem; record: TriageRecordResponse; onApply: (change: TriageUpdate) => Promise<void> }) {
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
