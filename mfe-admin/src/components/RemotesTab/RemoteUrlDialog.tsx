import { useState } from 'react';
import { TextField } from '@mui/material';
import { remoteUrlProblem } from '@radar/contracts';
import { FormDialog } from '../FormDialog/index.js';

export interface RemoteUrlDialogProps {
  /** User-facing name of the remote, e.g. 'Admin'. */
  label: string;
  url: string;
  busy: boolean;
  /** A problem the server reported for the last Save (its 400 on `url`). */
  serverError: string | null;
  onSave: (url: string) => void;
  onCancel: () => void;
}

/** Edit a remote's manifest URL: the same rule as the api (https, http on loopback, or a path of this site). */
export function RemoteUrlDialog({ label, url, busy, serverError, onSave, onCancel }: RemoteUrlDialogProps) {
  const [draft, setDraft] = useState(url);
  const [touched, setTouched] = useState(false);
  const trimmed = draft.trim();
  const problem = trimmed ? remoteUrlProblem(trimmed) : 'url is required';
  const shown = (touched ? problem : null) ?? serverError;
  const save = () => {
    setTouched(true);
    if (!problem) onSave(trimmed);
  };
  return (
    <FormDialog
      title={`Change the ${label} URL`}
      intro="The address of the build's mf-manifest.json. Browsers load the new build on their next page load; the current URL is kept for Rollback."
      busy={busy}
      onSave={save}
      onCancel={onCancel}
    >
      <TextField
        autoFocus
        fullWidth
        label={`Manifest URL for ${label}`}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => setTouched(true)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            save();
          }
        }}
        error={Boolean(shown)}
        helperText={shown ?? 'https://…/mf-manifest.json (http only on localhost)'}
      />
    </FormDialog>
  );
}
