import { Link as RouterLink, useLocation } from 'react-router-dom';
import { Button, Container, Stack, Typography } from '@mui/material';
import { MainLandmark } from '../MainLandmark/index.js';

/**
 * Any unknown route: the shell's fallback, and each remote's for its own unknown sub-paths. The server answers a
 * remote's sub-paths 200 (only the remote knows them), so the page asks search engines not to index it (React puts
 * the <meta> in <head> while the page is shown).
 */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Container component={MainLandmark} maxWidth="sm" sx={{ py: 10, textAlign: 'center' }}>
      <meta name="robots" content="noindex" />
      <Typography variant="overline" component="p" color="text.secondary">
        Error 404
      </Typography>
      <Typography variant="h3" component="h1" sx={{ fontWeight: 800, mb: 2 }}>
        Page not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4, wordBreak: 'break-word' }}>
        There is no page at {pathname}. It may have moved, or the link may be mistyped.
      </Typography>
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }}>
        <Button component={RouterLink} to="/" variant="contained">
          Go to home page
        </Button>
        <Button component={RouterLink} to="/dashboard" variant="outlined">
          Open Dashboard
        </Button>
      </Stack>
    </Container>
  );
}
