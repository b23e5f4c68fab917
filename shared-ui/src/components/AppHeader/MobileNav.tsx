import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Divider, Drawer, IconButton, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { endpoints } from '@radar/contracts';
import { useSession } from '../../session/useSession.js';
import { MenuIcon } from '../icons.js';
import { MAIN_NAV_LINKS } from './nav-links.js';

/** Menu button and left drawer for small screens; signed-in users also get Sign Out (to /api/logout). */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  const { isAuthenticated } = useSession();
  const close = () => setOpen(false);
  return (
    <>
      <IconButton aria-label="Open menu" color="inherit" onClick={() => setOpen(true)} sx={{ display: { md: 'none' } }}>
        <MenuIcon />
      </IconButton>
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
                  <ListItemButton component="a" href={endpoints.auth.logoutNavigation.path}>
                    <ListItemText primary="Sign Out" />
                  </ListItemButton>
                </ListItem>
              </>
            ) : null}
          </List>
        </Box>
      </Drawer>
    </>
  );
}
