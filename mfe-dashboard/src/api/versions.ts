import { routes, type Source } from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';

/** The versions of an item, newest first (GET …/versions); `null` id skips the call. */
export function useItemVersions(source: Source, id: string | null) {
  // Both hooks always run (rules of hooks); only the item's own source asks the api.
  const roadmap = useEndpoint(routes.items.roadmapVersions, source === 'roadmap' && id ? { params: { itemId: id } } : null);
  const messages = useEndpoint(routes.items.messageVersions, source === 'messages' && id ? { params: { messageId: id } } : null);
  return source === 'roadmap' ? roadmap : messages;
}

/** Two versions of an item compared (GET …/compare?from=&to=); skipped until both are chosen. */
export function useVersionCompare(source: Source, id: string, from: number | null, to: number | null) {
  const query = from !== null && to !== null ? { from, to } : null;
  const roadmap = useEndpoint(routes.items.roadmapCompare, source === 'roadmap' && query ? { params: { itemId: id }, query } : null);
  const messages = useEndpoint(routes.items.messageCompare, source === 'messages' && query ? { params: { messageId: id }, query } : null);
  return source === 'roadmap' ? roadmap : messages;
}
