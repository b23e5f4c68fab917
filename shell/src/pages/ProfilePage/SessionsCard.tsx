import { Button, Chip, List, ListItem, ListItemText, Typography } from '@mui/material';
import { routes, SIGNED_OUT_PARAM, type SessionRecord } from '@radar/contracts';
import { callEndpoint, formatChangeDate, serverMessageOf, useDialogs, useEndpoint, useToast } from '@radar/shared-ui';
import { ListState } from '../../components/ListState/index.js';
import { SectionCard } from '../../components/SectionCard/index.js';

/**
 * The account's sessions on /profile: each browser and system, the network it signed in from, when it began and was
 * last used, "This device" for the one asking, and End per session (ending this one signs out here).
 */
export function SessionsCard() {
  const { data, isLoading, error, mutate } = useEndpoint(routes.auth.sessions, {});
  const { toast } = useToast();
  const dialogs = useDialogs();

  const end = async (session: SessionRecord) => {
    const confirmed = await dialogs.confirm(
      session.current
        ? 'This is the browser you are using now: ending it signs you out here.'
        : `${session.browser} on ${session.os} will be signed out at once.`,
      { title: session.current ? 'Sign out of this device?' : 'End this session?', okText: 'End session' },
    );
    if (!confirmed) return;
    try {
      await callEndpoint(routes.auth.revokeSession, { params: { id: session.id } });
      if (session.current) {
        window.location.assign(`/?${SIGNED_OUT_PARAM}=1`);
        return;
      }
      toast({ title: 'Session ended', description: `${session.browser} on ${session.os} is signed out.` });
      await mutate();
    } catch (err) {
      toast({ title: 'Session not ended', description: serverMessageOf(err) || 'Please try again.', variant: 'destructive' });
    }
  };

  return (
    <SectionCard id="sessions-title" title="Your sessions">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Where your account is signed in. End a session you do not recognise, then consider “Sign out everywhere”.
      </Typography>
      <ListState
        isLoading={isLoading}
        failed={Boolean(error)}
        isEmpty={!data?.length}
        loadingLabel="Loading your sessions"
        errorText="Failed to load your sessions."
        emptyText="No sessions"
      >
        <List disablePadding aria-label="Your sessions">
          {(data ?? []).map((session) => (
            <ListItem
              key={session.id}
              divider
              secondaryAction={
                <Button color="error" onClick={() => void end(session)} aria-label={`End session ${session.browser} on ${session.os}`}>
                  End
                </Button>
              }
            >
              <ListItemText
                primary={
                  <>
                    {`${session.browser} on ${session.os}`}
                    {session.current ? <Chip size="small" color="primary" label="This device" sx={{ ml: 1 }} /> : null}
                  </>
                }
                secondary={[
                  session.network ? `from ${session.network}` : 'network unknown',
                  `signed in ${formatChangeDate(session.createdAt)}`,
                  `last used ${formatChangeDate(session.lastSeenAt)}`,
                ].join(' · ')}
                sx={{ pr: 8 }}
              />
            </ListItem>
          ))}
        </List>
      </ListState>
    </SectionCard>
  );
}
