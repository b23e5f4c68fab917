import type { ItemRow } from '../../db/schema/index.js';

/** The item's share link on M365 Radar (`/roadmap/{id}`, `/message/{id}`), which opens its dialog on the dashboard. */
export function shareUrlOf(publicUrl: string, row: Pick<ItemRow, 'source' | 'externalId'>): string {
  const id = encodeURIComponent(row.externalId);
  return row.source === 'roadmap' ? `${publicUrl}/roadmap/${id}` : `${publicUrl}/message/${id}`;
}
