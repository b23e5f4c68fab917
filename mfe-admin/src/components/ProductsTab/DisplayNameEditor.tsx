import { useRef, useState, type KeyboardEvent } from 'react';
import { Button, TextField } from '@mui/material';

export interface DisplayNameEditorProps {
  value: string;
  /** What the name belongs to, for the accessible labels. */
  sourceProduct: string;
  /** Called with the trimmed new name, only when it differs from `value` and is not empty. */
  onSave: (displayName: string) => void;
}

/** Inline display-name editing: Enter or blur saves if the trimmed value changed; Escape cancels. */
export function DisplayNameEditor({ value, sourceProduct, onSave }: DisplayNameEditorProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  // Enter and Escape end editing before the field unmounts; the blur that follows must not save again.
  const finished = useRef(false);

  const start = () => {
    finished.current = false;
    setDraft(value);
    setEditing(true);
  };
  const commit = () => {
    if (finished.current) return;
    finished.current = true;
    setEditing(false);
    const next = draft.trim();
    if (next && next !== value.trim()) onSave(next);
  };
  const cancel = () => {
    finished.current = true;
    setEditing(false);
    setDraft(value);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    }
  };

  if (!editing) {
    return (
      <Button
        variant="text"
        size="small"
        onClick={start}
        aria-label={`Edit display name of ${sourceProduct}: ${value}`}
        sx={{ textTransform: 'none', justifyContent: 'flex-start', color: 'text.primary' }}
      >
        {value}
      </Button>
    );
  }
  return (
    <TextField
      size="small"
      autoFocus
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onKeyDown={onKeyDown}
      onBlur={commit}
      slotProps={{ htmlInput: { 'aria-label': `Display name for ${sourceProduct}` } }}
      helperText="Enter to save, Escape to cancel"
    />
  );
}
