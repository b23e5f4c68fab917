import '@testing-library/jest-dom/jest-globals';
import { afterEach, beforeEach } from '@jest/globals';
import { cleanup, configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default; on a busy 2-core machine a lazily loaded dialog or a chained request
// can take longer to appear (a liveness bound, not a speed assertion: speed is measured by `npm run bench`).
configure({ asyncUtilTimeout: 5000 });

// jsdom has no matchMedia; tests flip `prefersDark` to simulate the operating-system setting.
type MatchMediaState = { prefersDark: boolean; listeners: Set<(event: MediaQueryListEvent) => void> };
const mediaState: MatchMediaState = { prefersDark: false, listeners: new Set() };
(globalThis as { __media?: MatchMediaState }).__media = mediaState;

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    get matches() {
      return query.includes('dark') ? mediaState.prefersDark : false;
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
  window.localStorage.clear();
  window.sessionStorage.clear();
  mediaState.prefersDark = false;
  mediaState.listeners.clear();
});

afterEach(() => {
  cleanup();
});
