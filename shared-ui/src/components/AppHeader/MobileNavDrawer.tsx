import { Link as RouterLink } from 'react-router-dom';
import { Box, Divider, Drawer, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { routes } from '@radar/contracts';
import { MAIN_NAV_LINKS } from './nav-links.js';

export interface MobileNavDrawerProps {
  open: boolean;
  isAuthenticated: boolean;
  onClose: () => void;
}

/** The small-screen navigation drawer (loaded the first time the menu button is used). */
export function MobileNavDrawer({ open, isAuthenticated, onClose: close }: MobileNavDrawerProps) {
  return (
    <Drawer anchor="left" open={open} onClose={close}>
      <Box component="nav" aria-label="Main menu" sx={{ width: 260 }}>
        <Typography variant="h6" component="p" sx={{ px: 2, py: 2 }}>
          M365 Radar
        </Typography>
        <Divider />
        <List>
          {MAIN_NAV_LINKS.map((link) => (
            <ListItem key={link.to} disablePadding>
              <ListItemButton component={RouterLink} to={link.to} onClick={close}>
                <ListItemText primary={link.label} />
              </ListItemButton>
            </ListItem>
          ))}
          {isAuthenticated ? (
            <>
              <Divider component="li" />
              <ListItem disablePadding>
                <ListItemButton component="a" href={routes.auth.logoutNavigation.path}>
                  <ListItemText primary="Sign Out" />
                </ListItemButton>
              </ListItem>
            </>
          ) : null}
        </List>
      </Box>
    </Drawer>
  );
}
