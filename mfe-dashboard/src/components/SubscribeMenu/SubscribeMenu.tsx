import { useId, useState } from 'react';
import { Button } from '@mui/material';
import type { ItemListParams } from '@radar/contracts';
import { Deferred, lazyNamed } from '@radar/shared-ui';

// The menu builds its URLs from the endpoint table, whose schemas (and zod) no first paint needs.
const SubscribeMenuPopup = lazyNamed(() => import('./SubscribeMenuPopup.js'), 'SubscribeMenuPopup');

export interface SubscribeMenuProps {
  /** The current view's list query; page, limit and sort are left out (a feed is always newest activity first). */
  params: ItemListParams;
  /** Origin of absolute URLs (defaults to the page's). */
  origin?: string;
}

/** Header menu: copy the RSS, Atom or calendar URL of the dashboard's current view. */
export function SubscribeMenu({ params, origin }: SubscribeMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  return (
    <>
      <Button
        id={buttonId}
        variant="outlined"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        Subscribe
      </Button>
      <Deferred open={Boolean(anchor)}>
        <SubscribeMenuPopup params={params} origin={origin} anchor={anchor} menuId={menuId} buttonId={buttonId} onClose={() => setAnchor(null)} />
      </Deferred>
    </>
  );
}
