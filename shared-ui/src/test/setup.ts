import '@testing-library/jest-dom/jest-globals';
import { afterEach, beforeEach } from '@jest/globals';
import { cleanup, configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default; on a busy 2-core machine a lazily loaded dialog or a chained request
// can take longer to appear (a liveness bound, not a speed assertion: speed is measured by `npm run bench`).
configure({ asyncUtilTimeout: 5000 });

// jsdom has no matchMedia; tests flip `prefersDark` to simulate the operating-system setting and `width` (px, through
// setViewportWidth) a screen size for width queries (MUI breakpoints).
type MatchMediaState = { prefersDark: boolean; width: number; listeners: Set<(event: MediaQueryListEvent) => void> };
const mediaState: MatchMediaState = { prefersDark: false, width: 1280, listeners: new Set() };

/** Whether a width query ("(max-width:899.95px)", "(min-width:600px)") holds at `width`. */
function widthMatches(query: string, width: number): boolean {
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  return (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
}
(globalThis as { __media?: MatchMediaState }).__media = mediaState;

// A test file can run in Node instead (`@jest-environment node`: server code), where there is no window.
const inBrowser = typeof window !== 'undefined';

if (inBrowser)
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      get matches() {
        if (query.includes('dark')) return mediaState.prefersDark;
        return /width/.test(query) ? widthMatches(query, mediaState.width) : false;
      },
      media: query,
      onchange: null,
      addEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) => mediaState.listeners.add(listener),
      removeEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) => mediaState.listeners.delete(listener),
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });

beforeEach(() => {
  if (!inBrowser) return;
  window.localStorage.clear();
  window.sessionStorage.clear();
  mediaState.prefersDark = false;
  mediaState.width = 1280;
  mediaState.listeners.clear();
});

afterEach(() => {
  if (inBrowser) cleanup();
});
