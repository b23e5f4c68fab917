import type { UnifiedItem } from '@radar/contracts';
import { providerIdOf } from '../../api/items.js';

/** {origin}/roadmap/{itemId} or {origin}/message/{messageId}; the shell redirects both to the dashboard dialog. */
export function shareUrlOf(item: Pick<UnifiedItem, 'source' | 'itemId' | 'messageId'>, origin: string = window.location.origin): string {
  const id = encodeURIComponent(providerIdOf(item));
  return item.source === 'roadmap' ? `${origin}/roadmap/${id}` : `${origin}/message/${id}`;
}

export const roadmapProviderUrl = (itemId: string) => `https://www.microsoft.com/microsoft-365/roadmap?searchterms=${encodeURIComponent(itemId)}`;
export const messageAdminUrl = (messageId: string) => `https://admin.microsoft.com/AdminPortal/home#/MessageCenter/:/messages/${encodeURIComponent(messageId)}`;

/** Clipboard API, with the old textarea fallback for non-secure origins. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand?.('copy');
  area.remove();
  if (!ok) throw new Error('Copy is not available');
}
