import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Card, CardContent, Chip, CircularProgress, Divider, Link, Stack, Typography } from '@mui/material';
import { UserAvatar, displayNameOf, formatDate, useSession } from '@radar/shared-ui';
import { PageContainer } from '../../components/PageContainer/index.js';
import { ApiTokensCard } from './ApiTokensCard.js';
import { PasskeysCard } from './PasskeysCard.js';
import { SessionsCard } from './SessionsCard.js';
import { SignOutEverywhere } from './SignOutEverywhere.js';

function Field({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {value}
      </Typography>
    </Box>
  );
}

/** /profile. */
export function ProfilePage() {
  const { user, isLoading, isAdmin } = useSession();
  if (isLoading) {
    return (
      <PageContainer title="Profile">
        <CircularProgress aria-label="Loading profile" />
      </PageContainer>
    );
  }
  if (!user) {
    return (
      <PageContainer title="Profile">
        <Typography sx={{ mb: 2 }}>Please sign in to view your profile.</Typography>
        <Link component={RouterLink} to="/dashboard">
          Go to Dashboard
        </Link>
      </PageContainer>
    );
  }
  return (
    <PageContainer title="Profile">
      <Stack spacing={3}>
        <Card variant="outlined">
          <CardContent>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 3 }}>
              <UserAvatar user={user} size={64} />
              <Box>
                <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
                  {displayNameOf(user)}
                </Typography>
                <Typography color="text.secondary">{user.email}</Typography>
              </Box>
            </Stack>
            <Box component="dl" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, m: 0 }}>
              <Field label="First name" value={user.firstName || 'Not set'} />
              <Field label="Last name" value={user.lastName || 'Not set'} />
              <Field label="Email" value={user.email} />
              <Field label="Last login" value={user.lastLoginAt ? formatDate(user.lastLoginAt) : 'Never'} />
              <Field
                label="Roles"
                value={
                  user.roles.length ? (
                    <Stack direction="row" spacing={1} component="span" sx={{ flexWrap: 'wrap' }}>
                      {user.roles.map((role) => (
                        <Chip key={role.id} label={role.name} size="small" color={role.name === 'Admin' ? 'primary' : 'default'} />
                      ))}
                    </Stack>
                  ) : (
                    'No roles assigned'
                  )
                }
              />
            </Box>
            <Divider sx={{ my: 3 }} />
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
              Quick actions
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Button component={RouterLink} to="/notifications" variant="outlined">
                Notification Settings
              </Button>
              {isAdmin ? (
                <Button component="a" href="/admin" variant="outlined">
                  Admin Panel
                </Button>
              ) : null}
            </Stack>
            <Divider sx={{ my: 3 }} />
            <SignOutEverywhere />
          </CardContent>
        </Card>
        <PasskeysCard />
        <SessionsCard />
        <ApiTokensCard />
      </Stack>
    </PageContainer>
  );
}
