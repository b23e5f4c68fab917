import type { ReactNode } from 'react';
import { Link as RouterLink, NavLink } from 'react-router-dom';
import { AppBar, Box, Button, Toolbar, Typography } from '@mui/material';
import { ThemeToggle } from '../ThemeToggle/index.js';
import { AccountMenu } from '../AccountMenu/index.js';
import { MobileNav } from './MobileNav.js';
import { MAIN_NAV_LINKS } from './nav-links.js';

/** The export action the dashboard passes in; the button is disabled while an export runs. */
export interface HeaderExportAction {
  onExport: () => void;
  isExporting: boolean;
}

export interface AppHeaderProps {
  /** Shows an Export button (only the dashboard passes one). */
  exportAction?: HeaderExportAction;
  /** More controls of the page, shown before Export (the dashboard's Subscribe menu). */
  actions?: ReactNode;
}

/** Header of every page: logo, main navigation (drawer on small screens), theme control and account menu. */
export function AppHeader({ exportAction, actions }: AppHeaderProps) {
  return (
    <AppBar position="sticky" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Toolbar sx={{ gap: 1 }}>
        <MobileNav />
        <Typography
          component={RouterLink}
          to="/"
          variant="h6"
          aria-label="M365 Radar home"
          sx={{ color: 'text.primary', textDecoration: 'none', fontWeight: 700, mr: 2, whiteSpace: 'nowrap' }}
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
        {actions}
        {exportAction ? (
          <Button variant="outlined" onClick={exportAction.onExport} disabled={exportAction.isExporting} aria-busy={exportAction.isExporting}>
            {exportAction.isExporting ? 'Exporting...' : 'Export'}
          </Button>
        ) : null}
        <ThemeToggle />
        <AccountMenu />
      </Toolbar>
    </AppBar>
  );
}
