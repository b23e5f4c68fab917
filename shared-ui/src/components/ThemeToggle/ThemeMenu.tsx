import { ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import type { ThemePreference } from '../../theme/theme-store.js';
import { DarkModeIcon, LightModeIcon, SystemModeIcon } from '../icons.js';

const OPTIONS: { value: ThemePreference; label: string; Icon: typeof LightModeIcon }[] = [
  { value: 'light', label: 'Light', Icon: LightModeIcon },
  { value: 'dark', label: 'Dark', Icon: DarkModeIcon },
  { value: 'system', label: 'System', Icon: SystemModeIcon },
];

export interface ThemeMenuProps {
  anchor: HTMLElement | null;
  preference: ThemePreference;
  onChoose: (value: ThemePreference) => void;
  onClose: () => void;
}

/** The Light / Dark / System menu (loaded the first time the theme button is used). */
export function ThemeMenu({ anchor, preference, onChoose, onClose }: ThemeMenuProps) {
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {OPTIONS.map(({ value, label, Icon }) => (
        <MenuItem key={value} role="menuitemradio" aria-checked={preference === value} selected={preference === value} onClick={() => onChoose(value)}>
          <ListItemIcon>
            <Icon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{label}</ListItemText>
        </MenuItem>
      ))}
    </Menu>
  );
}
