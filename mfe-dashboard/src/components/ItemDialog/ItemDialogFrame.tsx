import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, Dialog, DialogContent, DialogTitle, IconButton, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import type { UnifiedItem } from '@radar/contracts';
import { copyText, Deferred, icons, lazyNamed, useSession, useToast, useUserRoles } from '@radar/shared-ui';
import { providerIdOf } from '../../api/items.js';
import { itemTypeOf } from '../../api/moderation.js';
import { removalOf } from '../ItemTable/index.js';
import { SubscribeToggle } from '../SubscribeToggle/index.js';
import { shareUrlOf } from './share.js';

// Only moderators open it: its code is fetched on first use.
const ModerationDialog = lazyNamed(() => import('../ModerationDialog/ModerationDialog.js'), 'ModerationDialog');
// Signed-in users only: guests never load them.
const TriagePanel = lazyNamed(() => import('../TriagePanel/TriagePanel.js'), 'TriagePanel');
const RelevancePanel = lazyNamed(() => import('../RelevancePanel/RelevancePanel.js'), 'RelevancePanel');

export interface ItemDialogFrameProps {
  item: UnifiedItem;
  onClose: () => void;
  /** 'Roadmap ID' or 'Message Center ID'. */
  idLabel: string;
  /** The provider link (roadmap search or admin portal). */
  providerLink: { href: string; label: string };
  /** The item after a moderation save, so the dialog shows what was saved. */
  onItemChange: (item: UnifiedItem) => void;
  children: ReactNode;
}

/**
 * Dialog chrome shared by both detail dialogs: title, id, Subscribe, Share, provider link, Moderate, and for an item
 * no longer in its feed the banner "Removed from the roadmap on {date}" / "Expired on {date}".
 */
export function ItemDialogFrame({ item, onClose, idLabel, providerLink, onItemChange, children }: ItemDialogFrameProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  // The Moderate button follows the role names of GET /api/auth/user-roles (cached 5 minutes).
  const { isModerator } = useUserRoles();
  const { isAuthenticated } = useSession();
  const { toast } = useToast();
  const [isModerating, setModerating] = useState(false);
  const id = providerIdOf(item);
  // A removed roadmap item or an expired post (opened by its id or from the archive) says so first.
  const removal = removalOf(item);
  const titleId = `item-dialog-title-${item.id}`;

  const share = async () => {
    try {
      await copyText(shareUrlOf(item));
      toast({ title: 'Link Copied', description: 'Share link copied to clipboard' });
    } catch {
      toast({ title: 'Error', description: 'Could not copy the link', variant: 'destructive' });
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth={isAuthenticated ? 'lg' : 'md'} fullScreen={fullScreen} aria-labelledby={titleId} scroll="paper">
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {item.title}
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <icons.CloseIcon />
        </IconButton>
      </DialogTitle>
      <Box sx={{ px: 3, pb: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {idLabel}:{' '}
          <Box component="span" sx={{ fontFamily: 'monospace', color: 'text.primary' }}>
            {id}
          </Box>
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
          {/* Following and curation are for roadmap items and posts; an issue is followed through a saved search's alerts. */}
          {item.source !== 'health' ? <SubscribeToggle itemType={itemTypeOf(item)} itemId={id} itemTitle={item.title} /> : null}
          <Button size="small" variant="outlined" onClick={() => void share()}>
            Share
          </Button>
          <Button size="small" variant="outlined" href={providerLink.href} target="_blank" rel="noopener noreferrer">
            {providerLink.label}
          </Button>
          {isModerator && item.source !== 'health' ? (
            <Button size="small" variant="contained" color="secondary" onClick={() => setModerating(true)}>
              Moderate
            </Button>
          ) : null}
        </Stack>
      </Box>
      <DialogContent dividers>
        {removal ? (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="removal-banner">
            {removal.banner}
          </Alert>
        ) : null}
        {/*
          The dialog reads first and triages second: what the item says (summary, sections, dates) leads, and the
          triage panel sits beside it on a wide screen (sticky, so it stays in reach while the text scrolls) and
          after it on a narrow one. Above it, how relevant the item is to each tenant (a few lines): what a triage
          decision starts from. Relevance is of posts and roadmap items; a Service Health issue has none.
        */}
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            alignItems: 'start',
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: isAuthenticated ? 'minmax(0, 1fr) minmax(300px, 360px)' : 'minmax(0, 1fr)' },
          }}
        >
          <Box sx={{ minWidth: 0 }}>{children}</Box>
          {isAuthenticated ? (
            <Box sx={{ minWidth: 0, position: { md: 'sticky' }, top: { md: 0 } }}>
              {item.source !== 'health' ? (
                <Deferred open>
                  <RelevancePanel item={item} />
                </Deferred>
              ) : null}
              <Deferred open>
                <TriagePanel item={item} />
              </Deferred>
            </Box>
          ) : null}
        </Box>
      </DialogContent>
      {isModerating ? (
        <Deferred open>
          <ModerationDialog item={item} open onClose={() => setModerating(false)} onSaved={onItemChange} />
        </Deferred>
      ) : null}
    </Dialog>
  );
}
