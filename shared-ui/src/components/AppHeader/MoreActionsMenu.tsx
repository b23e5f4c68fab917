import { Menu, MenuItem } from '@mui/material';
import type { HeaderAction } from './AppHeader.js';

export interface MoreActionsMenuProps {
  id: string;
  actions: HeaderAction[];
  anchor: HTMLElement | null;
  onClose: () => void;
}

/** The "More actions" menu of a small screen's header. */
export function MoreActionsMenu({ id, actions, anchor, onClose }: MoreActionsMenuProps) {
  return (
    <Menu id={id} anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {actions.map((action) => (
        <MenuItem
          key={action.key}
          disabled={action.disabled}
          aria-busy={action.busy}
          onClick={() => {
            // The action may open its own menu: anchored where this one was opened from, once this one is closed.
            onClose();
            if (anchor) action.onSelect(anchor);
          }}
        >
          {action.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
