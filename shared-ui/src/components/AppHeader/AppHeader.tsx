import { useId, useState, type ReactNode } from 'react';
import { Link as RouterLink, NavLink } from 'react-router-dom';
import { AppBar, Box, Button, IconButton, Toolbar, Typography, useMediaQuery, useTheme } from '@mui/material';
import { Deferred, lazyNamed } from '../../lazy/Deferred.js';
import { ThemeToggle } from '../ThemeToggle/index.js';
import { AccountMenu } from '../AccountMenu/index.js';
import { MoreVertIcon } from '../icons.js';
import { MobileNav } from './MobileNav.js';
import { MAIN_NAV_LINKS } from './nav-links.js';

// The menu comes with MUI's popover code, which no first paint needs.
const MoreActionsMenu = lazyNamed(() => import('./MoreActionsMenu.js'), 'MoreActionsMenu');

/** The export action the dashboard passes in; the button is disabled while an export runs. */
export interface HeaderExportAction {
  onExport: () => void;
  isExporting: boolean;
}

/** A control of the page in the header: a button on wide screens, an entry of the "More actions" menu on small ones. */
export interface HeaderAction {
  key: string;
  label: string;
  /** Gets the element the action was chosen from: a menu the action opens anchors there. */
  onSelect: (anchor: HTMLElement) => void;
  disabled?: boolean;
  /** The button's popup (`aria-haspopup`), when choosing it opens a menu. */
  hasPopup?: boolean;
  /** `aria-busy` (an export in progress). */
  busy?: boolean;
}

export interface AppHeaderProps {
  /** Shows an Export button (only the dashboard passes one). */
  exportAction?: HeaderExportAction;
  /** The page's controls, shown before Export: buttons on wide screens, a "More actions" menu below the md breakpoint. */
  pageActions?: HeaderAction[];
  /**
   * Controls as elements, for remotes built before `pageActions`: shown on wide screens only, since elements cannot be
   * folded into a menu.
   */
  actions?: ReactNode;
}

/**
 * Header of every page: logo, main navigation (drawer on small screens), the page's actions, theme control and account
 * menu. Below the md breakpoint the page's actions and Export fold into one "More actions" menu, so the header never
 * grows wider than a phone's screen (the account button stays on screen and tappable).
 */
export function AppHeader({ exportAction, pageActions = [], actions }: AppHeaderProps) {
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('md'));
  const all: HeaderAction[] = [
    ...pageActions,
    ...(exportAction
      ? [
          {
            key: 'export',
            label: exportAction.isExporting ? 'Exporting...' : 'Export',
            onSelect: () => exportAction.onExport(),
            disabled: exportAction.isExporting,
            busy: exportAction.isExporting,
          },
        ]
      : []),
  ];
  return (
    <AppBar position="sticky" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Toolbar sx={{ gap: 1, minWidth: 0 }}>
        <MobileNav />
        <Typography
          component={RouterLink}
          to="/"
          variant="h6"
          aria-label="M365 Radar home"
          sx={{ color: 'text.primary', textDecoration: 'none', fontWeight: 700, mr: { xs: 0, md: 2 }, whiteSpace: 'nowrap' }}
        >
          M365 Radar
        </Typography>
        <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, flex: 1 }}>
          {MAIN_NAV_LINKS.map((link) => (
            <Button key={link.to} component={NavLink} to={link.to} color="inherit" sx={{ '&.active': { color: 'primary.main', fontWeight: 600 } }}>
              {link.label}
            </Button>
          ))}
        </Box>
        <Box sx={{ flex: { xs: 1, md: 0 } }} />
        {compact ? (
          <MoreActions actions={all} />
        ) : (
          <>
            {actions}
            {all.map((action) => (
              <Button
                key={action.key}
                variant="outlined"
                onClick={(event) => action.onSelect(event.currentTarget)}
                disabled={action.disabled}
                aria-busy={action.busy}
                aria-haspopup={action.hasPopup ? 'menu' : undefined}
                sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
              >
                {action.label}
              </Button>
            ))}
          </>
        )}
        <ThemeToggle />
        <AccountMenu />
      </Toolbar>
    </AppBar>
  );
}

/** The page's actions as one menu (small screens); the menu's code loads when it is first opened. */
function MoreActions({ actions }: { actions: HeaderAction[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (actions.length === 0) return null;
  return (
    <>
      <IconButton
        aria-label="More actions"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Deferred open={Boolean(anchor)}>
        <MoreActionsMenu id={menuId} actions={actions} anchor={anchor} onClose={() => setAnchor(null)} />
      </Deferred>
    </>
  );
}
