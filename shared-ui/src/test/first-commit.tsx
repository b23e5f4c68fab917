import type { ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

/**
 * Renders `ui` outside act(), as a browser runs it, and calls `check` with the container right after the first
 * commit (effects and transitions not yet run), then lets the test wait for what follows (`waitFor`). For code that
 * renders in steps (AfterFirstPaint): act() would run every step before the test could look.
 */
export async function withFirstCommit(ui: ReactElement, check: (container: HTMLElement) => void | Promise<void>): Promise<void> {
  const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const actEnvironment = scope.IS_REACT_ACT_ENVIRONMENT;
  scope.IS_REACT_ACT_ENVIRONMENT = false;
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  try {
    flushSync(() => root.render(ui));
    await check(container);
  } finally {
    flushSync(() => root.unmount());
    container.remove();
    scope.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
  }
}
