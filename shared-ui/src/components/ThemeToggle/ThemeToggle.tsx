import { useState, type MouseEvent } from 'react';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { useThemePreference } from '../../theme/ThemeProvider.js';
import type { ThemePreference } from '../../theme/theme-store.js';
import { DarkModeIcon, LightModeIcon, SystemModeIcon } from '../icons.js';

const OPTIONS: { value: ThemePreference; label: string; Icon: typeof LightModeIcon }[] = [
  { value: 'light', label: 'Light', Icon: LightModeIcon },
  { value: 'dark', label: 'Dark', Icon: DarkModeIcon },
  { value: 'system', label: 'System', Icon: SystemModeIcon },
];

/** Light / Dark / System menu behind one button labelled 'Toggle theme'. */
export function ThemeToggle() {
  const { preference, resolved, setPreference } = useThemePreference();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const CurrentIcon = resolved === 'dark' ? DarkModeIcon : LightModeIcon;
  const choose = (value: ThemePreference) => {
    setPreference(value);
    setAnchor(null);
  };
  return (
    <>
      <Tooltip title="Toggle theme" enterDelay={700} enterNextDelay={300}>
        <IconButton
          aria-label="Toggle theme"
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          color="inherit"
          onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        >
          <CurrentIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {OPTIONS.map(({ value, label, Icon }) => (
          <MenuItem
            key={value}
            role="menuitemradio"
            aria-checked={preference === value}
            selected={preference === value}
            onClick={() => choose(value)}
          >
            <ListItemIcon>
              <Icon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
