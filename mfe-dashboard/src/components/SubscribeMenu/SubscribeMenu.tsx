import { useId, useState } from 'react';
import { Button, Divider, ListItemText, Menu, MenuItem } from '@mui/material';
import { endpoints, type ItemListParams } from '@radar/contracts';
import { copyText, urlOf, useToast } from '@radar/shared-ui';

export interface SubscribeMenuProps {
  /** The current view's list query; page, limit and sort are left out (a feed is always newest activity first). */
  params: ItemListParams;
  /** Origin of absolute URLs (defaults to the page's). */
  origin?: string;
}

const FEEDS = [
  { key: 'rss', label: 'Copy RSS feed URL', hint: 'Feed readers, Outlook RSS', endpoint: endpoints.feeds.itemsRss, copied: 'RSS feed URL copied to clipboard' },
  { key: 'atom', label: 'Copy Atom feed URL', hint: 'Feed readers', endpoint: endpoints.feeds.itemsAtom, copied: 'Atom feed URL copied to clipboard' },
  { key: 'ics', label: 'Copy calendar URL', hint: 'GA and preview months, for Outlook or Google Calendar', endpoint: endpoints.feeds.releasesIcs, copied: 'Calendar URL copied to clipboard' },
] as const;

/** The feed URLs of a view: the list's filters on the feed endpoints of the endpoint table, absolute. */
export function feedUrls(params: ItemListParams, origin: string): Record<(typeof FEEDS)[number]['key'], string> {
  // A feed is the newest items of a view; "since my last visit" is personal to the dashboard and not a feed filter.
  const { page: _page, limit: _limit, sortField: _sortField, sortDirection: _sortDirection, sinceLastVisit: _since, ...query } = params;
  return Object.fromEntries(FEEDS.map((f) => [f.key, `${origin}${urlOf(f.endpoint, { query })}`])) as Record<(typeof FEEDS)[number]['key'], string>;
}

/** Header menu: copy the RSS, Atom or calendar URL of the dashboard's current view. */
export function SubscribeMenu({ params, origin = window.location.origin }: SubscribeMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { toast } = useToast();
  const menuId = useId();
  const buttonId = useId();
  const urls = feedUrls(params, origin);

  const copy = async (feed: (typeof FEEDS)[number]) => {
    setAnchor(null);
    try {
      await copyText(urls[feed.key]);
      toast({ title: 'Link Copied', description: feed.copied });
    } catch {
      toast({ title: 'Copy failed', description: `Copy this URL yourself: ${urls[feed.key]}`, variant: 'destructive' });
    }
  };

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
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-labelledby': buttonId } }}>
        {FEEDS.map((feed) => (
          <MenuItem key={feed.key} onClick={() => void copy(feed)} data-url={urls[feed.key]}>
            <ListItemText primary={feed.label} secondary={feed.hint} />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem component="a" href="/api/docs" target="_blank" rel="noopener">
          <ListItemText primary="API reference" secondary="Personal API tokens are on your profile" />
        </MenuItem>
      </Menu>
    </>
  );
}
