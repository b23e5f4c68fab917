import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState } from 'react';

export interface ConfirmDialogProps {
  /** Open when set. */
  open: boolean;
  title: string;
  text: string;
  /** The destructive button's label, e.g. 'Delete'. */
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before a destructive action (MUI's Dialog traps focus and closes on Escape). */
export function ConfirmDialog({ open, title, text, confirmLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const id = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={id}>
      <DialogTitle id={id}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button color="error" variant="contained" onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * What a ConfirmDialog asks about, and its wiring: `ask(target)` opens the dialog, Cancel or Escape closes it, and the
 * confirm button closes it and runs `action(target)` (which reports its own outcome, e.g. with a toast).
 */
export function useConfirm<T>(action: (target: T) => Promise<void> | void) {
  const [target, setTarget] = useState<T | null>(null);
  return {
    target,
    ask: (next: T) => setTarget(next),
    dialog: {
      open: target !== null,
      onClose: () => setTarget(null),
      onConfirm: () => {
        if (target === null) return;
        setTarget(null);
        void action(target);
      },
    },
  };
}
