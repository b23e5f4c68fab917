import { Container } from '@mui/material';
import { ImpersonationCard } from '../../components/ImpersonationCard/index.js';

/** /test-moderator: the role impersonation card on its own (a development tool). */
export function TestModeratorPage() {
  return (
    <Container component="section" maxWidth="sm" sx={{ py: 4 }}>
      <ImpersonationCard titleComponent="h1" />
    </Container>
  );
}
