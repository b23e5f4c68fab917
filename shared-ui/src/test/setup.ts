import '@testing-library/jest-dom/jest-globals';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { __unsafe_useEmotionCache as useEmotionCache } from '@emotion/react';
import { afterEach, beforeAll, beforeEach } from '@jest/globals';
import { act, cleanup, configure } from '@testing-library/react';

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

// Emotion's cache keeps every rule a file's tests have inserted in jsdom's stylesheet, and each getComputedStyle
// (Testing Library's role queries and accessible names make thousands) matches an element against all of them: by
// the end of the largest admin files 540 rules, among them MUI's `:has()` selectors, each a query of the element's
// subtree in jsdom. Each test starts from an empty sheet instead (the rules its own renders insert come back).
let emotionCache: ReturnType<typeof useEmotionCache> | null = null;

beforeAll(() => {
  if (!inBrowser) return;
  function TakeEmotionCache() {
    emotionCache = useEmotionCache();
    return null;
  }
  const root = createRoot(document.createElement('div'));
  act(() => root.render(createElement(TakeEmotionCache)));
  act(() => root.unmount());
});

afterEach(() => {
  if (!inBrowser) return;
  cleanup();
  if (!emotionCache) return;
  emotionCache.sheet.flush();
  emotionCache.inserted = {};
});
