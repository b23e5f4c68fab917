import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * False in a component's first commit; true from a transition scheduled right after it. For what a page shows below
 * its first screenful: on a cold load the top of the page is rendered, laid out and painted first, and the rest
 * follows in the next frames (interruptible, so input is never blocked). Tests rendering under act() see it all at
 * once, since act() runs the transition too.
 */
export function useAfterFirstPaint(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => startTransition(() => setAfter(true)), []);
  return after;
}

/** Renders its children from right after the first paint of the component that holds it (useAfterFirstPaint). */
export function AfterFirstPaint({ children }: { children: ReactNode }) {
  return useAfterFirstPaint() ? children : null;
}
