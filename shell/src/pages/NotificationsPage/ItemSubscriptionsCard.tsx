import { Box, Button, List, ListItem, ListItemText, Skeleton, Typography } from '@mui/material';
import type { NotificationSubscription } from '@radar/contracts';
import { removeSubscription, useNotificationSubscriptions, useToast } from '@radar/shared-ui';
import { SectionCard } from '../../components/SectionCard/index.js';

const sourceLabel = (sub: NotificationSubscription) => (sub.itemType === 'message_center' ? 'Message Center' : 'Roadmap');

/** Active item subscriptions with Remove. */
export function ItemSubscriptionsCard() {
  const { data, isLoading: fetching, mutate } = useNotificationSubscriptions(true);
  // Loading only while there is nothing to show: the answer a server-rendered page arrived with is shown at once
  // (SWR counts it as loading until its own request returns).
  const isLoading = fetching && data === undefined;
  const { toast } = useToast();
  const items = (data ?? []).filter((s) => s.subscriptionType === 'item' && s.isActive);

  const remove = async (sub: NotificationSubscription) => {
    try {
      await removeSubscription(sub.id);
      toast({ title: 'Unsubscribed', description: 'You will no longer receive notifications for this item.' });
      await mutate();
    } catch {
      toast({ title: 'Error', description: 'Failed to unsubscribe from this item', variant: 'destructive' });
    }
  };

  return (
    <SectionCard id="item-subs-title" title="Item Subscriptions">
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        You get an e-mail when a roadmap item or Message Center post you follow changes.
      </Typography>
      {isLoading ? (
        <Skeleton height={48} aria-label="Loading subscriptions" />
      ) : items.length === 0 ? (
        <Typography sx={{ py: 2 }}>No item subscriptions yet</Typography>
      ) : (
        <List disablePadding>
          {items.map((sub) => {
            const title = sub.itemTitle || 'Untitled Item';
            return (
              <ListItem
                key={sub.id}
                divider
                secondaryAction={
                  <Button color="error" onClick={() => void remove(sub)} aria-label={`Remove subscription: ${title}`}>
                    Remove
                  </Button>
                }
              >
                <ListItemText
                  primary={title}
                  secondary={
                    <Box component="span">
                      {sourceLabel(sub)} · ID: {sub.itemId ?? 'Unknown'}
                    </Box>
                  }
                  sx={{ pr: 10 }}
                />
              </ListItem>
            );
          })}
        </List>
      )}
    </SectionCard>
  );
}
