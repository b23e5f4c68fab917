import { SHARE_LINK_PREFIXES, SOURCE_LINK_PARAMS } from '@radar/contracts';
import type { ItemRow } from '../../db/schema/index.js';

/** The item's share link on M365 Radar (`/roadmap/{id}`, `/message/{id}`, `/health/{id}`), which opens its dialog on the dashboard. */
export function shareUrlOf(publicUrl: string, row: Pick<ItemRow, 'source' | 'externalId'>): string {
  return `${publicUrl}${SHARE_LINK_PREFIXES[SOURCE_LINK_PARAMS[row.source]]}${encodeURIComponent(row.externalId)}`;
}
