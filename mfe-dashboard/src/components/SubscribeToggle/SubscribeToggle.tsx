import { useState } from 'react';
import { FormControlLabel, Switch } from '@mui/material';
import type { ItemType } from '@radar/contracts';
import { findItemSubscription, removeSubscription, subscribeToItem, useAuthDialog, useNotificationSubscriptions, useSession, useToast } from '@radar/shared-ui';

export interface SubscribeToggleProps {
  itemType: ItemType;
  itemId: string;
  itemTitle: string;
}

const CREATED_TEXT: Record<ItemType, string> = {
  roadmap: 'You will be notified when the roadmap item is updated.',
  message_center: 'You will be notified when the message center item is updated.',
};

/** Subscribe to one item (signed-in users); guests are offered sign-in instead. */
export function SubscribeToggle({ itemType, itemId, itemTitle }: SubscribeToggleProps) {
  const { isAuthenticated } = useSession();
  const { open: openAuthDialog } = useAuthDialog();
  const { toast } = useToast();
  const { data, mutate } = useNotificationSubscriptions(isAuthenticated);
  const [isBusy, setBusy] = useState(false);
  const subscription = findItemSubscription(data, itemType, itemId);

  const onChange = async () => {
    if (!isAuthenticated) {
      openAuthDialog('signin');
      return;
    }
    setBusy(true);
    if (subscription) {
      try {
        await removeSubscription(subscription.id);
        toast({ title: 'Subscription removed', description: 'You will no longer be notified about this item.' });
      } catch {
        toast({ title: 'Unsubscribe failed', description: 'Failed to remove subscription. Please try again.', variant: 'destructive' });
      }
    } else {
      try {
        await subscribeToItem(itemType, itemId, itemTitle);
        toast({ title: 'Subscription created', description: CREATED_TEXT[itemType] });
      } catch {
        toast({ title: 'Subscription failed', description: 'Failed to create subscription. Please try again.', variant: 'destructive' });
      }
    }
    await mutate();
    setBusy(false);
  };

  return (
    <FormControlLabel
      control={<Switch checked={Boolean(subscription)} onChange={() => void onChange()} disabled={isBusy} />}
      label={isAuthenticated ? (subscription ? 'Subscribed' : 'Subscribe') : 'Subscribe (sign in)'}
    />
  );
}
