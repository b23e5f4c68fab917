import { IconButton, Tooltip } from '@mui/material';
import { DeleteOutlineIcon } from '../icons/index.js';

export interface DeleteIconButtonProps {
  /** Accessible name naming what is deleted, e.g. 'Delete role Auditor'. */
  label: string;
  /** Short hover text, e.g. 'Delete role'. */
  tooltip: string;
  onClick: () => void;
}

/** The small red delete control of the admin tables (roles, users, product mappings). */
export function DeleteIconButton({ label, tooltip, onClick }: DeleteIconButtonProps) {
  return (
    <Tooltip title={tooltip}>
      <IconButton aria-label={label} onClick={onClick} size="small" color="error">
        <DeleteOutlineIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
