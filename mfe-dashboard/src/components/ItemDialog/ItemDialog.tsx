import type { UnifiedItem } from '@radar/contracts';
import { ItemDialogFrame } from './ItemDialogFrame.js';
import { HealthDetails } from './HealthDetails.js';
import { MessageDetails } from './MessageDetails.js';
import { RoadmapDetails } from './RoadmapDetails.js';
import { healthAdminUrl, messageAdminUrl, roadmapProviderUrl } from './share.js';

export interface ItemDialogProps {
  item: UnifiedItem;
  onClose: () => void;
  /** View on a related item: opens the other dialog. */
  onOpenItem: (item: UnifiedItem) => void;
  /** The item changed (after a moderation save). */
  onItemChange: (item: UnifiedItem) => void;
  /** The moment relative times are measured from. */
  now?: Date;
}

/** The roadmap, message or Service Health detail dialog, by the item's source. */
export function ItemDialog({ item, onClose, onOpenItem, onItemChange, now = new Date() }: ItemDialogProps) {
  if (item.source === 'health') {
    const issueId = item.issueId ?? '';
    return (
      <ItemDialogFrame
        item={item}
        onClose={onClose}
        onItemChange={onItemChange}
        idLabel="Issue ID"
        providerLink={{ href: healthAdminUrl(issueId), label: 'Admin' }}
      >
        <HealthDetails item={item} onOpenItem={onOpenItem} now={now} />
      </ItemDialogFrame>
    );
  }
  if (item.source === 'roadmap') {
    const itemId = item.itemId ?? '';
    return (
      <ItemDialogFrame
        item={item}
        onClose={onClose}
        onItemChange={onItemChange}
        idLabel="Roadmap ID"
        providerLink={{ href: roadmapProviderUrl(itemId), label: 'View on the AI at Work Roadmap' }}
      >
        <RoadmapDetails item={item} onOpenItem={onOpenItem} now={now} />
      </ItemDialogFrame>
    );
  }
  const messageId = item.messageId ?? '';
  return (
    <ItemDialogFrame
      item={item}
      onClose={onClose}
      onItemChange={onItemChange}
      idLabel="Message Center ID"
      providerLink={{ href: messageAdminUrl(messageId), label: 'Admin' }}
    >
      <MessageDetails item={item} onOpenItem={onOpenItem} now={now} />
    </ItemDialogFrame>
  );
}
