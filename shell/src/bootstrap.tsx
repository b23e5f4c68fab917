import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { RadarProviders, beginHydration, onHydrated } from '@radar/shared-ui';
import { App } from './App.js';
import { SERVER_RENDER } from '@radar/contracts';
import { isServerRendered, readServerData } from './server/server-data.js';

/**
 * Renders the shell; index.ts calls it once the current route's page chunk (or remote) is here. A page the api
 * rendered on the server (api/src/http/server-render.ts) is hydrated: the first render starts from the data the
 * server rendered (SWR's fallback) and React keeps the server's DOM; what only the browser knows (a dark theme, the
 * reader's time zone) renders once all of it is hydrated (shared-ui's useHydrated). Markup that still does not match
 * (say, a dashboard remote of another version) is rendered in the browser instead, with a warning in the console.
 */
export function mount(): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  const serverData = isServerRendered() ? readServerData() : undefined;
  // The same tree as the server's (shell/src/server/render-page.tsx), so React keeps its markup.
  const tree = (
    <StrictMode>
      <RadarProviders swr={serverData ? { fallback: serverData } : undefined}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </RadarProviders>
    </StrictMode>
  );
  if (serverData) {
    // The server's markup was `inert` so that no click or key before hydration was lost: live once all of it is hydrated.
    beginHydration();
    onHydrated(() => {
      root.removeAttribute('inert');
      root.removeAttribute(SERVER_RENDER.rootAttribute);
    });
    hydrateRoot(root, tree, {
      onRecoverableError: (error, info) =>
        // eslint-disable-next-line no-console -- React would report it as an uncaught error; it is recovered from
        console.warn('M365 Radar: the server-rendered page did not match; rendered in the browser instead.', error, info.componentStack),
    });
  } else {
    root.replaceChildren();
    root.removeAttribute('inert');
    createRoot(root).render(tree);
  }
}
