import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Container, Divider, Link, Stack, Typography } from '@mui/material';
import { PRODUCT_NAME } from '@radar/contracts';
import { useAuthDialog, useRuntimeConfig } from '@radar/shared-ui';

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="nav" aria-label={title}>
      <Typography variant="subtitle2" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
        {title}
      </Typography>
      <Stack component="ul" spacing={0.75} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {children}
      </Stack>
    </Box>
  );
}

const linkSx = { color: 'text.secondary', '&:hover': { color: 'text.primary' } };

/** Footer: Pages, Account, Products, copyright and support address. */
export function Footer() {
  const config = useRuntimeConfig();
  const { open } = useAuthDialog();
  const year = new Date().getFullYear();
  const internal = (to: string, label: string) => (
    <li>
      <Link component={RouterLink} to={to} underline="hover" sx={linkSx}>
        {label}
      </Link>
    </li>
  );
  const authLink = (mode: 'signup' | 'signin', label: string) => (
    <li>
      <Link component="button" type="button" underline="hover" onClick={() => open(mode)} sx={{ ...linkSx, font: 'inherit', fontSize: '0.875rem' }}>
        {label}
      </Link>
    </li>
  );
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', mt: 'auto' }}>
      <Container maxWidth="lg" sx={{ py: 4 }}>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr 1fr', md: '2fr 1fr 1fr 1fr' }, typography: 'body2' }}>
          <Box sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }}>
              {PRODUCT_NAME}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              The AI at Work Roadmap (formerly the Microsoft 365 Roadmap) and Message Center in one searchable list, for Microsoft 365 administrators.
            </Typography>
          </Box>
          <Column title="Pages">
            {internal('/weekly-digest', 'Weekly Digest')}
            {internal('/contact', 'About Us')}
            {internal('/privacy', 'Privacy Policy')}
            {internal('/terms', 'Terms & Conditions')}
          </Column>
          <Column title="Account">
            {authLink('signup', 'Sign Up')}
            {authLink('signin', 'Sign In')}
          </Column>
          <Column title="Products">
            <li>
              <Link href={config.sisterProductUrl} target="_blank" rel="noopener noreferrer" underline="hover" sx={linkSx}>
                {config.sisterProductName} (opens in a new tab)
              </Link>
            </li>
            {internal('/dashboard', PRODUCT_NAME)}
          </Column>
        </Box>
        <Divider sx={{ my: 3 }} />
        <Typography variant="body2" color="text.secondary">
          © {year} {PRODUCT_NAME}. All rights reserved. Support: {/* Underlined: a link inside a sentence must not rely on colour alone. */}
          <Link href={`mailto:${config.supportEmail}`} underline="always">
            {config.supportEmail}
          </Link>
        </Typography>
      </Container>
    </Box>
  );
}
