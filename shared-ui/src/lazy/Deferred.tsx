import { Suspense, lazy, useState, type ComponentType, type ReactNode } from 'react';

/**
 * True from the first render in which `open` is true, and from then on. A popup whose code is loaded lazily is
 * mounted then and kept mounted, so its closing transition still plays and the second opening is instant.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

export interface DeferredProps {
  /** Whether the popup is open now; nothing (and no code) is loaded before it first is. */
  open: boolean;
  children: ReactNode;
}

/** Renders its (lazily loaded) children from the first time `open` is true: dialogs, menus and drawers. */
export function Deferred({ open, children }: DeferredProps) {
  const opened = useOpenedOnce(open);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/** `React.lazy` for a named export: `lazyNamed(() => import('./ItemDialog.js'), 'ItemDialog')`. */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<object> })) as unknown as M[K];
}
