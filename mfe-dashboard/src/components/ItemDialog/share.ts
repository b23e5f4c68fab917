import type { UnifiedItem } from '@radar/contracts';
import { providerIdOf } from '../../api/items.js';

/** {origin}/roadmap/{itemId} or {origin}/message/{messageId}; the shell redirects both to the dashboard dialog. */
export function shareUrlOf(item: Pick<UnifiedItem, 'source' | 'itemId' | 'messageId'>, origin: string = window.location.origin): string {
  const id = encodeURIComponent(providerIdOf(item));
  return item.source === 'roadmap' ? `${origin}/roadmap/${id}` : `${origin}/message/${id}`;
}

export const roadmapProviderUrl = (itemId: string) => `https://www.microsoft.com/microsoft-365/roadmap?searchterms=${encodeURIComponent(itemId)}`;
export const messageAdminUrl = (messageId: string) => `https://admin.microsoft.com/AdminPortal/home#/MessageCenter/:/messages/${encodeURIComponent(messageId)}`;
