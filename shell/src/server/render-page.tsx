/**
 * The first screen of a page rendered on the server: the api calls renderPage for a GET of a page that has a server
 * render (the landing page, the dashboard's default list; for a signed-in user also their notification settings and
 * the admin page) and sends its HTML inside #root,
 * its styles in <head> and the data it was rendered from as JSON. The browser shows the page before any JavaScript
 * has run; the shell's bootstrap then hydrates it (bootstrap.tsx) with the same data, so its first render is this
 * render and React keeps the DOM.
 *
 * Built by webpack.server.config.ts into dist-server/render-page.cjs: the shell, shared-ui and the dashboard's and the
 * admin app's ./App in one Node bundle, without module federation (the api renders a remote's page only when the
 * registry serves the remote built beside this shell; any other remote version renders in the browser).
 */
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { RadarProviders } from '@radar/shared-ui';
import AdminApp from '@radar/ssr-remote/admin';
import DashboardApp from '@radar/ssr-remote/dashboard';
import { App } from '../App.js';
import { provideRemoteApp } from '../federation/remotes.js';
import { PAGE_CHUNKS, loadPage, routeOf } from '../routes.js';
import { EMOTION_KEY } from './server-data.js';

export interface RenderPageInput {
  /** The page's path and query, as the browser asked for it. */
  url: string;
  /**
   * The answers the first screen reads, by the URL the page's SWR hooks ask for (e.g. the default list's
   * itemListUrl): the render shows them and the browser's first render starts from them.
   */
  data: Record<string, unknown>;
}

export interface RenderedPage {
  /** Markup for inside #root. */
  html: string;
  /** <style data-emotion> tags for <head>: exactly the styles this markup uses. */
  styles: string;
}

declare const __RADAR_SSR_REMOTE_VERSIONS__: Record<string, string>;

/** Pages rendered on the server: a shell page, or a remote whose ./App this bundle carries. */
const SERVER_REMOTES = { dashboard: DashboardApp, admin: AdminApp } as const;
provideRemoteApp('dashboard', DashboardApp);
provideRemoteApp('admin', AdminApp);

/**
 * The build version of each remote bundled here (as its own build's mf-manifest.json states it): the api renders a
 * remote's page only while the remote it serves states the same version, so the browser hydrates the same code.
 */
export const remoteVersions: Record<keyof typeof SERVER_REMOTES, string> = __RADAR_SSR_REMOTE_VERSIONS__;

/** Loads every shell page's code (one bundle: the imports resolve at once); call before the first render. */
export async function prepare(): Promise<void> {
  await Promise.all(Object.keys(PAGE_CHUNKS).map((page) => loadPage(page as keyof typeof PAGE_CHUNKS)));
}

/** True when `pathname` has a server render in this bundle. */
export function rendersPath(pathname: string): boolean {
  const { page, remote } = routeOf(pathname);
  return page !== undefined || (remote !== undefined && remote in SERVER_REMOTES);
}

export function renderPage({ url, data }: RenderPageInput): RenderedPage {
  const cache = createCache({ key: EMOTION_KEY });
  const emotion = createEmotionServer(cache);
  const html = renderToString(
    <CacheProvider value={cache}>
      <RadarProviders swr={{ fallback: data, provider: () => new Map() }}>
        <StaticRouter location={url}>
          <App />
        </StaticRouter>
      </RadarProviders>
    </CacheProvider>,
  );
  const styles = emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(html));
  return { html, styles };
}
