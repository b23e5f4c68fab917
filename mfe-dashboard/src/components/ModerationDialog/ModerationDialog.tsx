import { useState } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { THIRD_PARTY_LINK_TYPES, type ModerationUpdate, type ThirdPartyLink, type ThirdPartyLinkType, type UnifiedItem } from '@radar/contracts';
import { icons, serverMessageOf, useSession, useToast } from '@radar/shared-ui';
import { providerIdOf, useRefreshAfterModeration } from '../../api/items.js';
import { itemTypeOf, postModeratorActivity, saveModeration } from '../../api/moderation.js';
import { moderatorActivityFor } from './moderation-actions.js';

const LINK_TYPE_LABELS: Record<ThirdPartyLinkType, string> = {
  other: 'Other',
  video: 'Video',
  blog: 'Blog',
  documentation: 'Documentation',
  tutorial: 'Tutorial',
};

export interface ModerationDialogProps {
  item: UnifiedItem;
  open: boolean;
  onClose: () => void;
  /** Called with the item as the server stored it (the PUT's answer) after a successful save. */
  onSaved?: (item: UnifiedItem) => void;
}

const emptyDraft = { title: '', url: '', type: 'other' as ThirdPartyLinkType, description: '' };

/** Moderator panel of an item: featured switch, third-party links and internal notes. */
export function ModerationDialog({ item, open, onClose, onSaved }: ModerationDialogProps) {
  const { toast } = useToast();
  const { user } = useSession();
  const refresh = useRefreshAfterModeration();
  const [isFeatured, setFeatured] = useState(item.isFeatured);
  const [links, setLinks] = useState<ThirdPartyLink[]>(item.thirdPartyLinks);
  const [notes, setNotes] = useState(item.moderatorNotes ?? '');
  const [draft, setDraft] = useState(emptyDraft);
  const [isSaving, setSaving] = useState(false);

  const canAddLink = draft.title.trim() !== '' && draft.url.trim() !== '';

  const addLink = () => {
    if (!canAddLink) return;
    const description = draft.description.trim();
    setLinks((current) => [...current, { title: draft.title.trim(), url: draft.url.trim(), type: draft.type, ...(description ? { description } : {}) }]);
    setDraft(emptyDraft);
  };

  const save = async () => {
    const update: ModerationUpdate = { isFeatured, thirdPartyLinks: links, moderatorNotes: notes };
    setSaving(true);
    let saved: UnifiedItem;
    try {
      saved = (await saveModeration(item, update)).item;
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? 'Failed to update moderation settings', variant: 'destructive' });
      setSaving(false);
      return;
    }
    toast({ title: 'Success', description: 'Moderation settings updated successfully' });
    // The dialog shows what the server kept at once (e.g. 'Curated by moderator'); the lists refresh behind it.
    onSaved?.(saved);
    const before = { isFeatured: item.isFeatured, thirdPartyLinks: item.thirdPartyLinks, moderatorNotes: item.moderatorNotes ?? '' };
    const record = moderatorActivityFor(before, update);
    // A save that changed nothing is not an action: no record (it would read as a note removed, '' to '').
    if (record.details.changes.length > 0) {
      try {
        await postModeratorActivity({
          userId: user?.id,
          userEmail: user?.email,
          actionType: record.actionType,
          itemType: itemTypeOf(item),
          itemId: providerIdOf(item),
          itemTitle: item.title,
          details: record.details,
        });
      } catch (error) {
        // A failed activity record is only logged, never shown to the moderator (no logger in a browser).
        // eslint-disable-next-line no-console
        console.error('Failed to record moderator activity', error);
      }
    }
    await refresh();
    setSaving(false);
    onClose();
  };

  return (
    <Dialog open={open} onClose={isSaving ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="moderation-dialog-title">
      <DialogTitle id="moderation-dialog-title">Moderate: {item.title}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={3}>
          <FormControlLabel control={<Switch checked={isFeatured} onChange={(e) => setFeatured(e.target.checked)} />} label="Featured item" />
          <Box>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              Third-party links
            </Typography>
            {links.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                No third-party links yet
              </Typography>
            ) : (
              <List dense aria-label="Third-party links">
                {links.map((link, index) => (
                  <ListItem
                    key={`${link.url}-${index}`}
                    disableGutters
                    secondaryAction={
                      <IconButton
                        edge="end"
                        aria-label={`Remove link ${link.title}`}
                        onClick={() => setLinks((current) => current.filter((_, i) => i !== index))}
                      >
                        <icons.CloseIcon fontSize="small" />
                      </IconButton>
                    }
                  >
                    <ListItemText
                      primary={`${link.title} (${LINK_TYPE_LABELS[link.type]})`}
                      secondary={[link.url, link.description].filter(Boolean).join(' · ')}
                    />
                  </ListItem>
                ))}
              </List>
            )}
            <Stack spacing={1.5} sx={{ mt: 1 }}>
              <TextField label="Link title" size="small" value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
              <TextField
                label="Link URL"
                size="small"
                type="url"
                placeholder="https://"
                value={draft.url}
                onChange={(e) => setDraft({ ...draft, url: e.target.value })}
              />
              <TextField
                select
                label="Link type"
                size="small"
                value={draft.type}
                onChange={(e) => setDraft({ ...draft, type: e.target.value as ThirdPartyLinkType })}
              >
                {THIRD_PARTY_LINK_TYPES.map((type) => (
                  <MenuItem key={type} value={type}>
                    {LINK_TYPE_LABELS[type]}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label="Link description (optional)"
                size="small"
                value={draft.description}
                onChange={(e) => setDraft({ ...draft, description: e.target.value })}
              />
              <Box>
                <Button variant="outlined" onClick={addLink} disabled={!canAddLink}>
                  Add Link
                </Button>
              </Box>
            </Stack>
          </Box>
          <TextField
            label="Internal notes"
            helperText="Visible only to moderators and admins"
            multiline
            rows={4}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isSaving}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={isSaving}>
          {isSaving ? 'Saving...' : 'Save'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
