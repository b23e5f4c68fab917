import { describe, expect, it, jest } from '@jest/globals';
import { Suspense, act, type ReactElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Button } from '@mui/material';
import { formatDate } from '../presentation/format.js';
import { RadarThemeProvider, useThemePreference } from '../theme/ThemeProvider.js';
import { THEME_STORAGE_KEY, useThemeStore } from '../theme/theme-store.js';
import { HydrationDone, beginHydration, onHydrated, useDisplayTimeZone, useHydrated } from './useHydrated.js';

// A timestamp whose day differs between UTC and the zones west of it.
const LATE_UTC = '2026-03-05T02:30:00Z';

function DateText() {
  const zone = useDisplayTimeZone();
  return <span data-zone={zone}>{formatDate(LATE_UTC, zone)}</span>;
}

function Hydrated() {
  return <b>{useHydrated() ? 'browser' : 'server'}</b>;
}

/**
 * A page as the shell renders it: the content inside a Suspense boundary that ends the hydration when it is
 * hydrated (App.tsx). React hydrates such a boundary after the root, in a pass of its own.
 */
const page = (content: ReactElement) => (
  <Suspense fallback={null}>
    <HydrationDone />
    {content}
  </Suspense>
);

/**
 * Renders `ui` on the "server", then hydrates that markup in the page as the shell's bootstrap does; `inBrowser`
 * runs in between (what the browser knows that the server did not). One process has one time zone here: the e2e
 * suite hydrates in a browser far from UTC.
 */
async function serverThenHydrate(ui: ReactElement, inBrowser: () => void = () => undefined) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(ui);
  inBrowser();
  document.body.appendChild(container);
  const serverHtml = container.innerHTML;
  const mismatches = jest.fn();
  const done = jest.fn();
  beginHydration();
  onHydrated(done);
  await act(async () => {
    hydrateRoot(container, ui, { onRecoverableError: mismatches });
  });
  return { container, serverHtml, mismatches, done };
}

describe('useHydrated / useDisplayTimeZone', () => {
  it('the server render says server and UTC; the hydration keeps that markup, then the browser renders its own', async () => {
    const { container, serverHtml, mismatches, done } = await serverThenHydrate(
      page(
        <>
          <Hydrated />
          <DateText />
        </>,
      ),
    );
    expect(serverHtml).toContain('server');
    expect(serverHtml).toContain('Mar 5, 2026');
    expect(serverHtml).toContain('data-zone="UTC"');
    expect(mismatches).not.toHaveBeenCalled();
    expect(done).toHaveBeenCalledTimes(1);
    expect(container.textContent).toContain('browser');
    expect(container.querySelector('span')?.dataset.zone).toBe('local');
    expect(container.querySelector('span')?.textContent).toBe(formatDate(LATE_UTC, 'local'));
  });

  it('a page rendered in the browser is hydrated from its first render', async () => {
    const container = document.createElement('div');
    const seen: boolean[] = [];
    function Probe() {
      seen.push(useHydrated());
      return null;
    }
    await act(async () => createRoot(container).render(<Probe />));
    expect(seen.every(Boolean)).toBe(true);
    const done = jest.fn();
    onHydrated(done);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('formats a date in UTC or in the local zone', () => {
    expect(formatDate(LATE_UTC, 'UTC')).toBe('Mar 5, 2026');
    const local = new Date(LATE_UTC);
    const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][local.getMonth()];
    expect(formatDate(LATE_UTC)).toBe(`${month} ${local.getDate()}, ${local.getFullYear()}`);
  });
});

describe('RadarThemeProvider and a server render', () => {
  function Mode() {
    return <i>{useThemePreference().resolved}</i>;
  }

  it('hydrates the light page the server sent to the last part, then shows the stored dark choice everywhere', async () => {
    const ui = (
      <RadarThemeProvider>
        {page(
          <>
            <Mode />
            <Button variant="contained">Open Dashboard</Button>
          </>,
        )}
      </RadarThemeProvider>
    );
    // The server knows no stored choice (it renders 'system'); the browser's store has read 'dark' at start.
    const { container, serverHtml, mismatches } = await serverThenHydrate(ui, () => {
      window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');
      useThemeStore.setState({ preference: 'dark' });
    });
    expect(serverHtml).toContain('<i>light</i>');
    expect(mismatches).not.toHaveBeenCalled();
    expect(container.querySelector('i')?.textContent).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    // The button has the class names of a dark page rendered in the browser, not the light ones the server sent.
    const browserOnly = document.createElement('div');
    await act(async () => createRoot(browserOnly).render(ui));
    expect(container.querySelector('button')?.className).toBe(browserOnly.querySelector('button')?.className);
    act(() => useThemeStore.setState({ preference: 'system' }));
  });
});
