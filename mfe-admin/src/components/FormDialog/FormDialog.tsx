import { useId, type ReactNode } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';

export interface FormDialogProps {
  title: string;
  /** False while a dialog opened with `useDialogs().open` closes (so it can animate out). */
  open?: boolean;
  /** A sentence under the title: what the form is for. */
  intro?: ReactNode;
  /** True while the save runs: both buttons are disabled and the dialog does not close. */
  busy: boolean;
  /** A failure of the last save that is not about one field. */
  error?: string | null;
  /** Save is disabled while the form cannot be sent (a required field is empty). */
  saveDisabled?: boolean;
  /** The save button's text ('Save'), and its text while the save runs ('Saving...'). */
  saveText?: string;
  savingText?: string;
  /** `error` for a save that removes something. */
  saveColor?: 'primary' | 'error';
  /** A button between Cancel and Save for a step before saving (a preview); the dialog does not disable it while busy. */
  extraAction?: ReactNode;
  /** The dialog's width: 'sm' (the default) for forms, 'xs' for a short list of choices. */
  maxWidth?: 'xs' | 'sm';
  onSave: () => void;
  onCancel: () => void;
  /** The fields. */
  children: ReactNode;
}

/** The admin's add/change dialog: title, the fields, the failure of the last save, and Cancel / Save. */
export function FormDialog({
  title,
  open = true,
  intro,
  busy,
  error,
  saveDisabled = false,
  saveText = 'Save',
  savingText = 'Saving...',
  saveColor = 'primary',
  extraAction,
  maxWidth = 'sm',
  onSave,
  onCancel,
  children,
}: FormDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} fullWidth maxWidth={maxWidth}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {intro ? <DialogContentText sx={{ mb: 2 }}>{intro}</DialogContentText> : null}
        <Stack spacing={2} sx={intro ? undefined : { mt: 1 }}>
          {children}
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        {extraAction}
        <Button onClick={onSave} disabled={busy || saveDisabled} variant="contained" color={saveColor}>
          {busy ? savingText : saveText}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
