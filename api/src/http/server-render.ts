import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import querystring from 'node:querystring';
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  DASHBOARD_URL_STATE_KEYS,
  type DashboardVisitResponse,
  DEFAULT_LIST_PARAMS,
  defaultRemoteUrl,
  endpointUrl,
  endpoints,
  FIRST_SCREEN_ROWS,
  itemListQueryString,
  itemListUrl,
  SERVER_RENDER,
  SIGNED_OUT_PARAM,
  SOURCE_LINK_PARAMS,
  routes,
  type Endpoint,
  type ItemListResponse,
  type RemoteKey,
  type RuntimeConfig,
  type SessionUserResponse,
} from '@radar/contracts';
import type { ListForCaller } from '../features/items/list-for-caller.js';
import { readRemoteManifest } from '../features/remotes/manifest.js';
import type { Clock } from '../lib/clock.js';
import { LruCache } from '../lib/lru-cache.js';
import type { Logger } from '../logger.js';
import type { RequestAuth } from './auth.js';
import type { CallerReads } from './endpoints.js';
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
  /** Rendered for a signed-in user: the page is theirs alone (`Cache-Control: private`). */
  personal: boolean;
}

/** A page request, with the session resolved as for the api (`req.auth`: the signed-in caller, or null). */
export type PageRequest = IncomingMessage & { auth?: RequestAuth | null };

export type RenderFirstScreen = (req: PageRequest, config: RuntimeConfig) => Promise<FirstScreen | undefined>;

export interface ServerRenderDeps {
  /** Where shell/dist-server is. */
  root: string;
  /** The dashboard's list as a caller sees it (the answer GET /api/unified/items gives them). */
  list: ListForCaller;
  /** GET /api/auth/session-user's answer for a signed-in caller. */
  sessionUser: (auth: RequestAuth) => SessionUserResponse;
  /** The caller-alone GETs answered in-process (a signed-in user's page reads them: SIGNED_IN_READS). */
  reads: CallerReads;
  /**
   * What the dashboard's POST /api/dashboard/visit would answer the caller now, without recording a visit: a signed-in
   * user's dashboard shows its "since your last visit" banner from the first paint.
   */
  visitPreview?: (auth: RequestAuth, now: Date) => Promise<DashboardVisitResponse>;
  clock: Clock;
  log: Logger;
}

const RENDERER_FILE = path.join('shell', 'dist-server', 'render-page.cjs');
/** The dashboard's first list: the request the page's own hook makes (contracts' itemListUrl of DEFAULT_LIST_PARAMS). */
const DEFAULT_LIST_URL = itemListUrl(DEFAULT_LIST_PARAMS);
const DEFAULT_LIST_REQUEST = endpoints.items.list.query.parse(querystring.parse(itemListQueryString(DEFAULT_LIST_PARAMS)));
/** The session lookup's URL, as the shell's useSession asks for it (its SWR key). */
const SESSION_USER_URL = routes.auth.sessionUser.path;
/** The dashboard visit's answer, by the key the dashboard's useDashboardVisit reads it under (the POST's path). */
const VISIT_URL = routes.items.dashboardVisit.path;

/**
 * The pages a signed-in user's first screen is rendered for, and what each reads besides the session and the
 * dashboard's list: GETs answered from the caller alone (implementCallerRead), by the URL the page's hooks ask for.
 * An answer the page does not read only adds bytes; one it reads and is not here shows its loading state, in the
 * server's render and the browser's first render alike.
 */
const SIGNED_IN_READS: Record<string, readonly Endpoint[]> = {
  '/': [],
  '/dashboard': [],
  '/notifications': [
    endpoints.digest.status,
    endpoints.subscriptions.list,
    endpoints.triage.mailSettings,
    endpoints.alerts.listSavedSearches,
    endpoints.alerts.listChannels,
  ],
  // The access check's roles call and the first tab (Sync History); an admin lacking the session's second factor is
  // refused both, as by the routes, and gets the page's own checking state.
  '/admin': [endpoints.admin.roles, endpoints.sync.syncHistory],
};

/** The remote each rendered remote page shows: rendered only while the api serves the build the render bundle carries. */
const PAGE_REMOTES: Record<string, RemoteKey> = { '/dashboard': 'dashboard', '/admin': 'admin' };

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
const RENDERED_PARAMS: Record<string, readonly string[]> = {
  '/': ['signin', SIGNED_OUT_PARAM],
  '/notifications': ['signin', SIGNED_OUT_PARAM],
  '/admin': ['signin', SIGNED_OUT_PARAM, 'tab'],
  '/dashboard': ['signin', SIGNED_OUT_PARAM, ...Object.values(SOURCE_LINK_PARAMS)],
};

/** The page's URL as rendered: its path and the parameters it reads, in the order they came. */
export function renderedUrl(pathname: string, params: URLSearchParams): string {
  const read = RENDERED_PARAMS[pathname] ?? [];
  const kept = new URLSearchParams([...params].filter(([name]) => read.includes(name)));
  const search = kept.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/**
 * The list answer as the first screen draws it: its first FIRST_SCREEN_ROWS rows (the table's first commit) with what
 * the answer says of them, and its totals. The server renders only those rows, so the page data the browser parses
 * before it can hydrate holds nothing the first screen does not draw; the browser's own request for the list (sent by
 * the shell's entry, taken by the page's hook when it revalidates on mount) brings the whole page right after.
 */
export function firstScreenList(body: string): string {
  const list = JSON.parse(body) as ItemListResponse;
  if (list.items.length <= FIRST_SCREEN_ROWS) return body;
  const items = list.items.slice(0, FIRST_SCREEN_ROWS);
  const ids = new Set(items.map((item) => item.id));
  const ofRows = <T>(map: Record<string, T> | undefined) => {
    const kept = map && Object.entries(map).filter(([id]) => ids.has(id));
    return kept?.length ? Object.fromEntries(kept) : undefined;
  };
  return JSON.stringify({ ...list, items, receivedBy: ofRows(list.receivedBy), triage: ofRows(list.triage), relevance: ofRows(list.relevance) });
}

/** JSON inside a <script>: `<` escaped, so no `</script>` or `<!--` in the data can end or change the element. */
const scriptSafe = (json: string) => json.replace(/</g, '\\u003c');

/**
 * The first screen of the landing page and of the dashboard's default list, rendered on the server: the
 * page shows its content before any JavaScript has run, and the shell hydrates it with the same data. A guest gets
 * the guest's page; a signed-in user (the session cookie, resolved as the api resolves it) gets their own: the page
 * starts from their session and shows the list as GET /api/unified/items answers them (staff notes, their tenants,
 * triage) and the page's other reads (SIGNED_IN_READS: their notification settings, the admin page's first tab), and
 * is sent `Cache-Control: private`. Only for pages the render bundle carries, and a remote's page (the dashboard, the
 * admin page) only when the registry serves the api's own copy of that remote and that copy is the version the
 * bundle carries (another version renders in the browser: hydrating it would not match). Any failure — no render
 * bundle, a render error, a boundary React could not render — leaves the page to the browser, as before: the server
 * render only ever adds.
 *
 * A render costs tens of milliseconds of CPU, so its result is cached by what it shows: the page's path and the
 * parameters it reads (`renderedUrl`), the ETag of the list answer it contains (which changes with any write to
 * the items) and, for a signed-in user, a hash of their session answer, so no cached page is ever older than the
 * list the api would answer, a made-up query string renders nothing new, and no render is ever sent to another user.
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
    // An API token is a script's, not a browser's: it gets the page as it is.
    if (req.headers.authorization !== undefined) return undefined;
    const auth = req.auth ?? null;
    // Appended, not resolved: a path like //dashboard stays a path (Express's req.url always starts with /).
    const url = new URL(`http://page.invalid${req.url ?? '/'}`);
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const reads = auth ? SIGNED_IN_READS[pathname] : undefined;
    if (pathname !== '/' && pathname !== '/dashboard' && !reads) return undefined;
    const loaded = await load();
    if (!loaded?.rendersPath(pathname)) return undefined;
    // The answers the page shows (as JSON), by the URL the page's own hooks ask for: what the render is exact for.
    const data: Record<string, string> = {};
    if (auth) {
      // A signed-in user's page starts from their session (the header's menu, what the page offers them) and the
      // page's own reads.
      data[SESSION_USER_URL] = JSON.stringify(deps.sessionUser(auth));
      try {
        // Read together (each on its own pooled connection), kept in the page's order: the render's key hashes them.
        const answers = await Promise.all((reads ?? []).map(async (endpoint) => [endpointUrl(endpoint), await deps.reads(endpoint, auth)] as const));
        for (const [key, answer] of answers) if (answer !== undefined) data[key] = answer;
      } catch (error) {
        deps.log.warn({ err: error, url: pathname }, 'server render skipped: the page data could not be read');
        return undefined;
      }
    }
    let version = '';
    const remote = PAGE_REMOTES[pathname];
    if (remote) {
      // A phone shows lists as cards, chosen by the window's width, which the server cannot know: the server's
      // tables would turn into cards when hydrated. Phones get the page rendered in the browser.
      if (isMobileBrowser(req)) return undefined;
      if (config.remotes[remote] !== defaultRemoteUrl(remote)) return undefined;
      if ((await servedVersion(remote)) !== loaded.remoteVersions[remote]) return undefined;
    }
    // The admin page's other tabs load their code when opened: only the first one is rendered.
    if (pathname === '/admin' && (url.searchParams.get('tab') ?? 'sync') !== 'sync') return undefined;
    if (pathname === '/dashboard') {
      // Another list (kept choices, a saved search) is fetched by the page itself; the default one is here.
      if (DASHBOARD_URL_STATE_KEYS.some((key) => url.searchParams.has(key)) || url.searchParams.has('savedSearch')) return undefined;
      let answer: Awaited<ReturnType<ListForCaller['answer']>>;
      try {
        answer = await deps.list.answer(DEFAULT_LIST_REQUEST, auth, deps.clock.now());
      } catch (error) {
        // The database is unreachable: the page still loads (the browser's own request will show the error state).
        deps.log.warn({ err: error }, 'server render skipped: the list could not be read');
        return undefined;
      }
      data[DEFAULT_LIST_URL] = answer.body.toString('utf8');
      version = answer.etag;
      if (auth && deps.visitPreview) {
        try {
          data[VISIT_URL] = JSON.stringify(await deps.visitPreview(auth, deps.clock.now()));
        } catch (error) {
          deps.log.warn({ err: error }, 'server render skipped: the last visit could not be read');
          return undefined;
        }
      }
    }
    const pageUrl = renderedUrl(pathname, url.searchParams);
    // A personal render is keyed by a hash of what it shows besides the list (the session: user, roles,
    // impersonation; the page's reads): two users' pages never share a key, and a render is reused only for the same
    // user with the same answers.
    const personal = Object.entries(data).filter(([dataUrl]) => dataUrl !== DEFAULT_LIST_URL);
    const viewer = personal.length ? crypto.createHash('sha256').update(JSON.stringify(personal)).digest('base64url') : '';
    // Badges (New, Updated) count from the render's own time: a render is reused for RENDER_REUSE_MS at most.
    const key = JSON.stringify([pageUrl, viewer, version, Math.floor(deps.clock.now().getTime() / RENDER_REUSE_MS)]);
    const screen = await screens.load(key, async () => {
      try {
        // The list as the first screen draws it (cut once per render, not per request).
        const shown = Object.entries(data).map(([dataUrl, json]) => [dataUrl, dataUrl === DEFAULT_LIST_URL ? firstScreenList(json) : json] as const);
        const parsed = Object.fromEntries(shown.map(([dataUrl, json]) => [dataUrl, JSON.parse(json) as unknown]));
        const { html, styles } = loaded.renderPage({ url: pageUrl, data: parsed });
        if (html.includes(CLIENT_RENDERED_BOUNDARY)) {
          deps.log.warn({ url: pageUrl }, 'server render left part of the page to the browser: the page renders in the browser');
          return null;
        }
        const json = `{${shown.map(([dataUrl, body]) => `${JSON.stringify(dataUrl)}:${body}`).join(',')}}`;
        const dataScript = `<script type="application/json" id="${SERVER_RENDER.dataElementId}">${scriptSafe(json)}</script>`;
        return { key, html, styles, dataScript, personal: auth !== null };
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
