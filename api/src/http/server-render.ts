import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import querystring from 'node:querystring';
import type { IncomingMessage } from 'node:http';
import {
  DASHBOARD_URL_STATE_KEYS,
  DEFAULT_LIST_PARAMS,
  defaultRemoteUrl,
  endpoints,
  itemListQueryString,
  itemListUrl,
  SERVER_RENDER,
  SIGNED_OUT_PARAM,
  SOURCE_LINK_PARAMS,
  type RemoteKey,
  type RuntimeConfig,
} from '@radar/contracts';
import type { ListAnswers } from '../features/items/list-answers.js';
import { readRemoteManifest } from '../features/remotes/manifest.js';
import type { Clock } from '../lib/clock.js';
import { LruCache } from '../lib/lru-cache.js';
import type { Logger } from '../logger.js';
import { readCookie } from './cookies.js';
import { REMOTE_DIRS } from './static-bundles.js';

/** What shell/dist-server/render-page.cjs exports (shell/src/server/render-page.tsx). */
interface PageRenderer {
  prepare(): Promise<void>;
  /** Build version of each remote bundled in the render (its manifest's metaData.radar.version). */
  remoteVersions: Record<string, string>;
  rendersPath(pathname: string): boolean;
  renderPage(input: { url: string; data: Record<string, unknown> }): { html: string; styles: string };
}

/** A page's first screen as the server rendered it, ready to go into the shell page. */
export interface FirstScreen {
  /** What makes this render exact (the page, and the answers it shows): the shell page is cached by it. */
  key: string;
  /** Markup for inside #root. */
  html: string;
  /** <style> tags for <head>. */
  styles: string;
  /** <script type="application/json"> with the data the render used, which the browser's first render starts from. */
  dataScript: string;
}

export type RenderFirstScreen = (req: IncomingMessage, config: RuntimeConfig) => Promise<FirstScreen | undefined>;

export interface ServerRenderDeps {
  /** Where shell/dist-server is. */
  root: string;
  answers: ListAnswers;
  clock: Clock;
  log: Logger;
  /** A request with this cookie is a signed-in user's: rendered in the browser (the server render is anonymous). */
  sessionCookieName: string;
}

const RENDERER_FILE = path.join('shell', 'dist-server', 'render-page.cjs');
/** The dashboard's first list: the request the page's own hook makes (contracts' itemListUrl of DEFAULT_LIST_PARAMS). */
const DEFAULT_LIST_URL = itemListUrl(DEFAULT_LIST_PARAMS);
const DEFAULT_LIST_REQUEST = endpoints.items.list.query.parse(querystring.parse(itemListQueryString(DEFAULT_LIST_PARAMS)));
/** How long one render of a page may be sent again for the same data. */
const RENDER_REUSE_MS = 5 * 60_000;
/** A boundary React could not render on the server (it renders in the browser instead): `<!--$!-->`. */
const CLIENT_RENDERED_BOUNDARY = '<!--$!-->';

/** A phone or tablet browser: the client hint when sent (Chromium), else the user agent's own word for it. */
function isMobileBrowser(req: IncomingMessage): boolean {
  const hint = req.headers['sec-ch-ua-mobile'];
  if (hint === '?1') return true;
  if (hint === '?0') return false;
  return /\b(Mobi|Android|iPhone|iPad|iPod)\b/i.test(req.headers['user-agent'] ?? '');
}

/**
 * The query parameters a rendered page reads (the sign-in and signed-out prompts of every page; the dashboard's item
 * dialog links): the render is keyed by the path and these alone, and renders the URL without the others, so a
 * query string made up per request (`/?r=<random>`) reuses the render instead of costing a new one.
 */
const RENDERED_PARAMS: Record<'/' | '/dashboard', readonly string[]> = {
  '/': ['signin', SIGNED_OUT_PARAM],
  '/dashboard': ['signin', SIGNED_OUT_PARAM, ...Object.values(SOURCE_LINK_PARAMS)],
};

/** The page's URL as rendered: its path and the parameters it reads, in the order they came. */
export function renderedUrl(pathname: '/' | '/dashboard', params: URLSearchParams): string {
  const kept = new URLSearchParams([...params].filter(([name]) => RENDERED_PARAMS[pathname].includes(name)));
  const search = kept.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** JSON inside a <script>: `<` escaped, so no `</script>` or `<!--` in the data can end or change the element. */
const scriptSafe = (json: string) => json.replace(/</g, '\\u003c');

/**
 * The first screen of the landing page and of the dashboard's default list, rendered on the server: the
 * page shows its content before any JavaScript has run, and the shell hydrates it with the same data. Only for
 * requests without a session (the render is what a guest sees), only for pages the render bundle carries, and the
 * dashboard only when the registry serves the api's own copy of the dashboard and that copy is the version the
 * bundle carries (another version renders in the browser: hydrating it would not match). Any failure — no render
 * bundle, a render error, a boundary React could not render — leaves the page to the browser, as before: the server
 * render only ever adds.
 *
 * A render costs tens of milliseconds of CPU, so its result is cached by what it shows: the page's path and the
 * parameters it reads (`renderedUrl`), and the ETag of the list answer it contains (which changes with any write to
 * the items), so no cached page is ever older than the list the api would answer, and a made-up query string renders
 * nothing new.
 */
export function createServerRender(deps: ServerRenderDeps): RenderFirstScreen | undefined {
  const file = path.join(deps.root, RENDERER_FILE);
  if (!fs.existsSync(file)) return undefined;
  let renderer: Promise<PageRenderer | undefined> | undefined;
  const load = () =>
    (renderer ??= (async () => {
      try {
        const loaded = createRequire(import.meta.url)(file) as PageRenderer;
        await loaded.prepare();
        return loaded;
      } catch (error) {
        deps.log.warn({ err: error, file }, 'server render not available: pages render in the browser');
        return undefined;
      }
    })());
  // The build version of a remote the api serves itself, as Admin → Remotes reads it (readRemoteManifest), read again
  // whenever its manifest file changes (a rebuild).
  const served = new Map<RemoteKey, { mtimeMs: number; version: string | null }>();
  const servedVersion = async (remote: RemoteKey): Promise<string | null> => {
    const stat = await fs.promises.stat(path.join(deps.root, REMOTE_DIRS[remote], 'dist', 'mf-manifest.json')).catch(() => undefined);
    if (!stat) return null;
    const known = served.get(remote);
    if (known?.mtimeMs === stat.mtimeMs) return known.version;
    // A file of the api's own: no timeout applies.
    const read = await readRemoteManifest(defaultRemoteUrl(remote), { staticRoot: deps.root, timeoutMs: 0 });
    const version = read.reachable ? (read.build?.version ?? null) : null;
    served.set(remote, { mtimeMs: stat.mtimeMs, version });
    return version;
  };
  const screens = new LruCache<FirstScreen | null>({ entries: 32, weight: 16 * 1024 * 1024, weigh: (s) => (s ? s.html.length + s.dataScript.length : 1) });

  const firstScreen: RenderFirstScreen = async (req, config) => {
    if (req.headers.authorization !== undefined || readCookie(req, deps.sessionCookieName) !== undefined) return undefined;
    // Appended, not resolved: a path like //dashboard stays a path (Express's req.url always starts with /).
    const url = new URL(`http://page.invalid${req.url ?? '/'}`);
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    if (pathname !== '/' && pathname !== '/dashboard') return undefined;
    const loaded = await load();
    if (!loaded?.rendersPath(pathname)) return undefined;
    // The answers the page shows (as JSON), and their validators: what the cached render is exact for.
    let data: Record<string, string> = {};
    let version = '';
    if (pathname === '/dashboard') {
      // A phone shows the list as cards, chosen by the window's width, which the server cannot know: the server's
      // table would turn into cards when hydrated. Phones get the page rendered in the browser.
      if (isMobileBrowser(req)) return undefined;
      if (config.remotes.dashboard !== defaultRemoteUrl('dashboard')) return undefined;
      if ((await servedVersion('dashboard')) !== loaded.remoteVersions.dashboard) return undefined;
      // Another list (kept choices, a saved search) is fetched by the page itself; the default one is here.
      if (DASHBOARD_URL_STATE_KEYS.some((key) => url.searchParams.has(key)) || url.searchParams.has('savedSearch')) return undefined;
      let answer: Awaited<ReturnType<ListAnswers['answer']>>;
      try {
        answer = await deps.answers.answer(DEFAULT_LIST_REQUEST, deps.clock.now(), { includeNotes: false, triage: false });
      } catch (error) {
        // The database is unreachable: the page still loads (the browser's own request will show the error state).
        deps.log.warn({ err: error }, 'server render skipped: the list could not be read');
        return undefined;
      }
      data = { [DEFAULT_LIST_URL]: answer.body.toString('utf8') };
      version = answer.etag;
    }
    const pageUrl = renderedUrl(pathname, url.searchParams);
    // Badges (New, Updated) count from the render's own time: a render is reused for RENDER_REUSE_MS at most.
    const key = JSON.stringify([pageUrl, version, Math.floor(deps.clock.now().getTime() / RENDER_REUSE_MS)]);
    const screen = await screens.load(key, async () => {
      try {
        const parsed = Object.fromEntries(Object.entries(data).map(([dataUrl, json]) => [dataUrl, JSON.parse(json) as unknown]));
        const { html, styles } = loaded.renderPage({ url: pageUrl, data: parsed });
        if (html.includes(CLIENT_RENDERED_BOUNDARY)) {
          deps.log.warn({ url: pageUrl }, 'server render left part of the page to the browser: the page renders in the browser');
          return null;
        }
        const json = `{${Object.entries(data)
          .map(([dataUrl, body]) => `${JSON.stringify(dataUrl)}:${body}`)
          .join(',')}}`;
        const dataScript = `<script type="application/json" id="${SERVER_RENDER.dataElementId}">${scriptSafe(json)}</script>`;
        return { key, html, styles, dataScript };
      } catch (error) {
        deps.log.warn({ err: error, url: pageUrl }, 'server render failed: the page renders in the browser');
        return null;
      }
    });
    return screen ?? undefined;
  };
  // Whatever goes wrong, the page is still sent: the browser renders it.
  return (req, config) =>
    firstScreen(req, config).catch((error: unknown) => {
      deps.log.warn({ err: error, url: req.url }, 'server render failed: the page renders in the browser');
      return undefined;
    });
}
