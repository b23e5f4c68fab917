import { useId, type ElementType } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Stack, Typography } from '@mui/material';
import { useEffectiveRoles } from '../../api/admin.js';
import { IMPERSONATION_OPTIONS, useImpersonation, type ImpersonationChoice } from './useImpersonation.js';

export interface ImpersonationCardProps {
  /** Heading element of the card title: 'h1' on /test-moderator, 'h2' inside the admin Users tab. */
  titleComponent?: ElementType;
}

/** Role impersonation (a development tool): None, Admin, Moderator or User for the caller's own session. */
export function ImpersonationCard({ titleComponent = 'h2' }: ImpersonationCardProps) {
  const { status, availability, busy, choose, clear } = useImpersonation();
  const labelId = useId();
  const current: ImpersonationChoice = (status?.impersonatedRole as ImpersonationChoice | null) ?? 'None';
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component={titleComponent} sx={{ fontWeight: 700 }}>
          Role Impersonation
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          See the product as an Admin, a Moderator or a User would. This changes only your own session.
        </Typography>
        {availability === 'turned-off' ? (
          <Alert severity="info">Impersonation is turned off on this server. It is a development tool and is only available where it has been enabled.</Alert>
        ) : availability === 'not-allowed' ? (
          <Alert severity="info">Sign in with an administrator account to use role impersonation.</Alert>
        ) : availability === 'error' ? (
          <Alert severity="warning">The impersonation status could not be loaded. Please try again later.</Alert>
        ) : availability === 'loading' ? (
          <Typography color="text.secondary">Loading impersonation status...</Typography>
        ) : (
          <Stack spacing={2}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              {status?.isImpersonating ? (
                <>
                  <Chip color="warning" label={`Impersonating: ${status.impersonatedRole}`} />
                  <Button size="small" variant="outlined" onClick={() => void clear()} disabled={busy}>
                    Clear
                  </Button>
                </>
              ) : (
                <Chip variant="outlined" label="Not impersonating" />
              )}
            </Stack>
            <FormControl disabled={busy}>
              <FormLabel id={labelId}>Impersonate role</FormLabel>
              <RadioGroup row aria-labelledby={labelId} value={current} onChange={(event) => void choose(event.target.value as ImpersonationChoice)}>
                {IMPERSONATION_OPTIONS.map((option) => (
                  <FormControlLabel key={option} value={option} control={<Radio />} label={option} />
                ))}
              </RadioGroup>
            </FormControl>
            <EffectiveRoles />
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}

/** The roles the server now applies to this session (refetched after every change). */
function EffectiveRoles() {
  const { data } = useEffectiveRoles();
  if (!data) return null;
  const names = data.map((entry) => entry.role.name);
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        Effective roles: {names.length ? names.join(', ') : 'none'}
      </Typography>
    </Box>
  );
}
