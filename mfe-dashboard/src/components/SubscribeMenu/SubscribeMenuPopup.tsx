import { Divider, ListItemText, Menu, MenuItem } from '@mui/material';
import { routes, type ItemListParams } from '@radar/contracts';
import { copyText, urlOf, useToast } from '@radar/shared-ui';

const FEEDS = [
  { key: 'rss', label: 'Copy RSS feed URL', hint: 'Feed readers, Outlook RSS', endpoint: routes.feeds.itemsRss, copied: 'RSS feed URL copied to clipboard' },
  { key: 'atom', label: 'Copy Atom feed URL', hint: 'Feed readers', endpoint: routes.feeds.itemsAtom, copied: 'Atom feed URL copied to clipboard' },
  {
    key: 'ics',
    label: 'Copy calendar URL',
    hint: 'GA and preview months, for Outlook or Google Calendar',
    endpoint: routes.feeds.releasesIcs,
    copied: 'Calendar URL copied to clipboard',
  },
] as const;

/** The feed URLs of a view: the list's filters on the feed routes of the endpoint table, absolute. */
export function feedUrls(params: ItemListParams, origin: string): Record<(typeof FEEDS)[number]['key'], string> {
  // A feed is the newest items of a view; "since my last visit" is personal to the dashboard and not a feed filter.
  const { page: _page, limit: _limit, sortField: _sortField, sortDirection: _sortDirection, sinceLastVisit: _since, ...query } = params;
  return Object.fromEntries(FEEDS.map((f) => [f.key, `${origin}${urlOf(f.endpoint, { query })}`])) as Record<(typeof FEEDS)[number]['key'], string>;
}

export interface SubscribeMenuPopupProps {
  params: ItemListParams;
  /** Origin of absolute URLs (defaults to the page's). */
  origin?: string;
  anchor: HTMLElement | null;
  onClose: () => void;
}

/** The menu of feed URLs (loaded the first time Subscribe is used: it carries the endpoint table). */
export function SubscribeMenuPopup({ params, origin = window.location.origin, anchor, onClose }: SubscribeMenuPopupProps) {
  const { toast } = useToast();
  const urls = feedUrls(params, origin);

  const copy = async (feed: (typeof FEEDS)[number]) => {
    onClose();
    try {
      await copyText(urls[feed.key]);
      toast({ title: 'Link Copied', description: feed.copied });
    } catch {
      toast({ title: 'Copy failed', description: `Copy this URL yourself: ${urls[feed.key]}`, variant: 'destructive' });
    }
  };

  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose} slotProps={{ list: { 'aria-label': 'Subscribe' } }}>
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
  );
}
