import { useEffect, useSyncExternalStore } from 'react';
import type { DisplayTimeZone } from '../presentation/format.js';

/*
 * Whether the page is past the hydration of a server render. A page the server rendered is hydrated in parts:
 * React hydrates the root first and the Suspense boundaries after it, in later passes. Anything the browser knows
 * and the server did not (the stored or system dark theme, the reader's time zone) must wait until the last part is
 * hydrated too: a part hydrated after such a change would keep the server's attributes (class names) while React
 * believes it has the new ones. So the shell's bootstrap calls beginHydration before hydrateRoot, and
 * <HydrationDone /> — placed inside the page's innermost server-rendered boundary — ends it from its effect, which
 * runs once that boundary is hydrated.
 */
let hydrating = false;
const listeners = new Set<() => void>();

/** The page is about to hydrate a server render (the shell's bootstrap, before hydrateRoot). */
export function beginHydration(): void {
  hydrating = true;
}

function endHydration(): void {
  if (!hydrating) return;
  hydrating = false;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Calls `listener` once the page has hydrated (at once when it is not hydrating). */
export function onHydrated(listener: () => void): void {
  if (!hydrating) {
    listener();
    return;
  }
  const unsubscribe = subscribe(() => {
    unsubscribe();
    listener();
  });
}

/** Ends the hydration from inside the server-rendered boundary it is placed in (see above). Renders nothing. */
export function HydrationDone(): null {
  useEffect(endHydration, []);
  return null;
}

/**
 * False while rendering on the server and until the server's markup is hydrated to the last part; true in every
 * other render (a page rendered in the browser: from its first render). Components using it render again, with
 * true, once hydration ends.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => !hydrating,
    () => false,
  );
}

/**
 * The time zone dates are shown in: the browser's own, except in a server render and the hydration of it, which
 * show UTC (the server cannot know the reader's zone, and both must write the same text); the dates move to the
 * reader's zone in the render right after.
 */
export function useDisplayTimeZone(): DisplayTimeZone {
  return useHydrated() ? 'local' : 'UTC';
}
