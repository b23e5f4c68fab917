import type { ItemListParams } from '@radar/contracts';
import { Deferred, lazyNamed } from '@radar/shared-ui';

// The menu builds its URLs from the endpoint table, whose schemas (and zod) no first paint needs.
const SubscribeMenuPopup = lazyNamed(() => import('./SubscribeMenuPopup.js'), 'SubscribeMenuPopup');

export interface SubscribeMenuProps {
  /** The current view's list query; page, limit and sort are left out (a feed is always newest activity first). */
  params: ItemListParams;
  /** Origin of absolute URLs (defaults to the page's). */
  origin?: string;
  /** Where the menu opens (the header's Subscribe button, or its "More actions" button on a phone); null: closed. */
  anchor: HTMLElement | null;
  onClose: () => void;
}

/** The Subscribe menu: copy the RSS, Atom or calendar URL of the dashboard's current view. */
export function SubscribeMenu({ params, origin, anchor, onClose }: SubscribeMenuProps) {
  return (
    <Deferred open={Boolean(anchor)}>
      <SubscribeMenuPopup params={params} origin={origin} anchor={anchor} onClose={onClose} />
    </Deferred>
  );
}
