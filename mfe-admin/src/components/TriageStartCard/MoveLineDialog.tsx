import { useState } from 'react';
import { Alert, Button, TextField } from '@mui/material';
import { formatCount, routes, type TriageStartLine, type TriageStartMoveResponse } from '@radar/contracts';
import { callEndpoint, formatDate, serverMessageOf } from '@radar/shared-ui';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { fieldErrorsOf } from '../../api/field-errors.js';
import { FormDialog } from '../FormDialog/index.js';
import { START_KEY } from './start-key.js';

/** Today as the server counts it (UTC): the latest day a line may start from. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

interface Failure {
  /** The server's problem with the date, shown under the field. */
  from?: string;
  /** Any other failure, shown in the dialog. */
  message: string | null;
}

/**
 * Moves one starting line: Preview counts the records moving it would open and close (nothing changes), Move the line
 * does it. Records nobody touched of items already past on the new day close before tracking; records closed before
 * tracking of items not past then open again.
 */
export function MoveLineDialog({ line, onClose }: { line: TriageStartLine; onClose: () => void }) {
  const run = useAdminAction();
  const [from, setFrom] = useState(line.from);
  const [preview, setPreview] = useState<(TriageStartMoveResponse & { from: string }) | null>(null);
  const [busy, setBusy] = useState<'preview' | 'move' | null>(null);
  const [failure, setFailure] = useState<Failure>({ message: null });

  const failed = (error: unknown) => {
    const fields = fieldErrorsOf(error);
    const { from: fromError, ...others } = fields;
    setFailure({
      from: fromError,
      message: Object.values(others)[0] ?? (fromError ? null : (serverMessageOf(error) ?? errorMessageOf(error))),
    });
  };

  const send = (dryRun: boolean) => callEndpoint(routes.triage.moveStart, { body: { tenantId: line.tenantId, from, preview: dryRun } });

  const askPreview = async () => {
    setBusy('preview');
    setFailure({ message: null });
    const outcome = await run(() => send(true), { failure: (e) => `Could not preview the move: ${errorMessageOf(e)}` });
    setBusy(null);
    if (outcome.ok) setPreview({ ...outcome.result, from });
    else failed(outcome.error);
  };

  const move = async () => {
    setBusy('move');
    setFailure({ message: null });
    const outcome = await run(() => send(false), {
      success: ({ opens, closes }) => ({ title: `Starting line moved: ${opens.toLocaleString('en-US')} opened, ${closes.toLocaleString('en-US')} closed` }),
      failure: (e) => `Could not move the starting line: ${errorMessageOf(e)}`,
      revalidate: [START_KEY],
    });
    setBusy(null);
    if (outcome.ok) onClose();
    else failed(outcome.error);
  };

  return (
    <FormDialog
      title={`Move the starting line of ${line.tenantName}`}
      intro="Records nobody touched of items already past on the new day close before tracking; records closed before tracking of items not past then open again. Preview counts them without changing anything."
      busy={busy !== null}
      error={failure.message}
      saveDisabled={!from}
      saveText="Move the line"
      savingText="Moving..."
      extraAction={
        <Button onClick={() => void askPreview()} disabled={busy !== null || !from}>
          {busy === 'preview' ? 'Counting...' : 'Preview'}
        </Button>
      }
      onSave={() => void move()}
      onCancel={onClose}
    >
      <TextField
        fullWidth
        type="date"
        label="Start from"
        value={from}
        onChange={(event) => {
          setFrom(event.target.value);
          setPreview(null);
          setFailure({ message: null });
        }}
        error={Boolean(failure.from)}
        helperText={failure.from ?? 'Triage counts from this day (today at the latest)'}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: todayUtc() } }}
      />
      {preview ? (
        <Alert severity="info" role="status">
          Moving the line to {formatDate(preview.from, 'UTC')} opens {formatCount(preview.opens, 'record')} and closes {preview.closes.toLocaleString('en-US')}.
        </Alert>
      ) : null}
    </FormDialog>
  );
}
