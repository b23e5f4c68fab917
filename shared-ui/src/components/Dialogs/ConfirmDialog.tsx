import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
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
   */
  action?: () => Promise<unknown>;
  /** The confirm button's label while `action` runs, e.g. 'Deleting...'. */
  busyText?: string;
}

export interface ConfirmDialogProps extends Omit<ConfirmOptions, 'action'> {
  open: boolean;
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
  onClose,
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={open} onClose={busy ? undefined : () => onClose(false)} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
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
