import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel } from '@mui/material';
import { useId } from 'react';

export interface ConfirmOptions {
  title: string;
  /** The confirm button's label, e.g. 'Delete'. */
  okText: string;
  cancelText?: string;
  /** 'error' (the default) for an action that removes or ends something. */
  severity?: 'error' | 'primary';
  /**
   * Runs on confirm while the dialog stays open with both buttons disabled (the confirm button saying `busyText`);
   * the dialog closes when it settles. Without it the dialog closes at once and the caller acts on the answer.
   * Given the state of `choice` when there is one.
   */
  action?: (chosen: boolean) => Promise<unknown>;
  /** A checkbox under the question (e.g. "Also revoke their API tokens"), ticked at first when `checked`. */
  choice?: { label: string; checked: boolean };
  /** The confirm button's label while `action` runs, e.g. 'Deleting...'. */
  busyText?: string;
}

export interface ConfirmDialogProps extends Omit<ConfirmOptions, 'action' | 'choice'> {
  open: boolean;
  /** The checkbox under the question and its state now; `onChoose` ticks or unticks it. */
  choice?: { label: string; checked: boolean };
  onChoose?: (checked: boolean) => void;
  /** The question, including its consequence. */
  message: string;
  /** While true both buttons are disabled and Escape does nothing. */
  busy?: boolean;
  /** True for the confirm button, false for Cancel, Escape or a click outside. */
  onClose: (confirmed: boolean) => void;
}

/**
 * Asks before a destructive action. MUI's Dialog traps focus; focus starts on Cancel, so Enter never destroys by
 * accident, and Escape or Cancel answers no.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  okText,
  cancelText = 'Cancel',
  severity = 'error',
  busy = false,
  busyText,
  choice,
  onChoose,
  onClose,
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={open} onClose={busy ? undefined : () => onClose(false)} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
        {choice ? (
          <FormControlLabel
            sx={{ mt: 1 }}
            control={<Checkbox checked={choice.checked} disabled={busy} onChange={(event) => onChoose?.(event.target.checked)} />}
            label={choice.label}
          />
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)} disabled={busy} autoFocus>
          {cancelText}
        </Button>
        <Button color={severity} variant="contained" onClick={() => onClose(true)} disabled={busy}>
          {busy && busyText ? busyText : okText}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
