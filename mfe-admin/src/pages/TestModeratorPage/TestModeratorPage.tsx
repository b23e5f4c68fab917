import { Container } from '@mui/material';
import { MainLandmark } from '@radar/shared-ui';
import { ImpersonationCard } from '../../components/ImpersonationCard/index.js';

/** /test-moderator: the role impersonation card on its own (a development tool). */
export function TestModeratorPage() {
  return (
    <Container component={MainLandmark} maxWidth="sm" sx={{ py: 4 }}>
      <ImpersonationCard titleComponent="h1" />
    </Container>
  );
}
