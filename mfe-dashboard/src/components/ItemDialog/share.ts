import { SHARE_LINK_PREFIXES, SOURCE_LINK_PARAMS, type UnifiedItem } from '@radar/contracts';
import { providerIdOf } from '../../api/items.js';

/** {origin}/roadmap/{itemId}, {origin}/message/{messageId} or {origin}/health/{issueId}; the shell redirects each to the dashboard dialog. */
export function shareUrlOf(item: Pick<UnifiedItem, 'source' | 'itemId' | 'messageId' | 'issueId'>, origin: string = window.location.origin): string {
  return `${origin}${SHARE_LINK_PREFIXES[SOURCE_LINK_PARAMS[item.source]]}${encodeURIComponent(providerIdOf(item))}`;
}

export const roadmapProviderUrl = (itemId: string) => `https://www.microsoft.com/microsoft-365/roadmap?searchterms=${encodeURIComponent(itemId)}`;
export const messageAdminUrl = (messageId: string) => `https://admin.microsoft.com/AdminPortal/home#/MessageCenter/:/messages/${encodeURIComponent(messageId)}`;
export const healthAdminUrl = (issueId: string) => `https://admin.microsoft.com/AdminPortal/home#/servicehealth/:/alerts/${encodeURIComponent(issueId)}`;
