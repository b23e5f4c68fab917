import { useState, type MouseEvent } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import { useThemePreference } from '../../theme/ThemeProvider.js';
import type { ThemePreference } from '../../theme/theme-store.js';
import { Deferred, lazyNamed } from '../../lazy/Deferred.js';
import { DarkModeIcon, LightModeIcon } from '../icons.js';

// Menus come with MUI's popover and modal code, which no first paint needs.
const ThemeMenu = lazyNamed(() => import('./ThemeMenu.js'), 'ThemeMenu');

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
      <Deferred open={Boolean(anchor)}>
        <ThemeMenu anchor={anchor} preference={preference} onChoose={choose} onClose={() => setAnchor(null)} />
      </Deferred>
    </>
  );
}
