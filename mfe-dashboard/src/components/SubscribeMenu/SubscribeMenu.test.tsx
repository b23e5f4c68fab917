import { useState } from 'react';
import { Button } from '@mui/material';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders } from '@radar/shared-ui/test';
import { SubscribeMenu } from './SubscribeMenu.js';
import { feedUrls } from './SubscribeMenuPopup.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

/** The menu as the header opens it: from a Subscribe button (or the "More actions" button on a phone). */
function WithButton({ params }: { params: Parameters<typeof SubscribeMenu>[0]['params'] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        Subscribe
      </Button>
      <SubscribeMenu params={params} origin="https://radar.example.com" anchor={anchor} onClose={() => setAnchor(null)} />
    </>
  );
}

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
}

describe('feedUrls', () => {
  it('puts the view’s filters on each feed endpoint, without page, limit and sort', () => {
    const urls = feedUrls(
      {
        sortField: 'modifiedDate',
        sortDirection: 'asc',
        page: 2,
        limit: 50,
        products: ['Microsoft Teams', 'Outlook'],
        sources: ['roadmap'],
        search: 'copilot',
      },
      'https://radar.example.com',
    );
    expect(urls).toEqual({
      rss: 'https://radar.example.com/api/feeds/items.rss?products=Microsoft+Teams&products=Outlook&sources=roadmap&search=copilot',
      atom: 'https://radar.example.com/api/feeds/items.atom?products=Microsoft+Teams&products=Outlook&sources=roadmap&search=copilot',
      ics: 'https://radar.example.com/api/feeds/releases.ics?products=Microsoft+Teams&products=Outlook&sources=roadmap&search=copilot',
    });
    expect(feedUrls({ sortField: 'createdDate', sortDirection: 'desc' }, 'http://x').rss).toBe('http://x/api/feeds/items.rss');
  });

  it('leaves out "since my last visit", which is personal to the dashboard', () => {
    expect(feedUrls({ sinceLastVisit: true, includeRemoved: true }, 'http://x').rss).toBe('http://x/api/feeds/items.rss?includeRemoved=true');
  });
});

describe('SubscribeMenu', () => {
  it('copies the RSS, Atom and calendar URLs of the current view and says so', async () => {
    const writeText = jest.fn(async (_text: string) => undefined);
    stubClipboard(writeText);
    renderWithProviders(<WithButton params={{ featured: true }} />, { withAuthDialog: false });
    const button = screen.getByRole('button', { name: 'Subscribe' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    fireEvent.click(button);
    expect(await screen.findByRole('menu', { name: 'Subscribe' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('menuitem', { name: /Copy RSS feed URL/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('https://radar.example.com/api/feeds/items.rss?featured=true'));
    expect(await screen.findByText('RSS feed URL copied to clipboard')).toBeInTheDocument();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    fireEvent.click(screen.getByRole('menuitem', { name: /Copy calendar URL/ }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('https://radar.example.com/api/feeds/releases.ics?featured=true'));
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    fireEvent.click(screen.getByRole('menuitem', { name: /Copy Atom feed URL/ }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('https://radar.example.com/api/feeds/items.atom?featured=true'));
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(screen.getByRole('menuitem', { name: /API reference/ })).toHaveAttribute('href', '/api/docs');
  });

  it('shows the URL to copy by hand when the clipboard refuses', async () => {
    stubClipboard(async () => {
      throw new Error('denied');
    });
    renderWithProviders(<WithButton params={{}} />, { withAuthDialog: false });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Copy RSS feed URL/ }));
    expect(await screen.findByText('Copy this URL yourself: https://radar.example.com/api/feeds/items.rss')).toBeInTheDocument();
  });
});
