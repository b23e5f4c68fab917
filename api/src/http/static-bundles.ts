import compression from 'compression';
import type { Express, RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import crypto from 'node:crypto';
import type http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { DARK_FIRST_PAINT_SCRIPT, RUNTIME_CONFIG_GLOBAL, SERVER_RENDER, sitePathOf, type RuntimeConfig } from '@radar/contracts';
import { originsOf } from '../features/remotes/registry.js';
import { LruCache } from '../lib/lru-cache.js';
import { allowInlineScriptHash, allowRemoteOrigins } from './security-headers.js';
import type { FirstScreen, RenderFirstScreen } from './server-render.js';

export const REMOTE_DIRS = { dashboard: 'mfe-dashboard', admin: 'mfe-admin', digest: 'mfe-digest' } as const;

/**
 * Serves the built shell at / and each remote's dist at /remotes/<name>/, and fills the runtime configuration
 * (where the remotes are: the remote registry, read per request) into the shell's index.html, so a remote can ship
 * without rebuilding or restarting anything. The page's CSP names exactly the origins of the remotes it loads.
 *
 * Every build writes brotli and gzip copies beside its files (build-config/federation.cjs); they are served by
 * Accept-Encoding with `Vary: Accept-Encoding` and the ETag of the copy actually sent. Hashed chunks are immutable;
 * entries, manifests and the page are revalidated (ETag → 304).
 */
export function mountStaticBundles(
  app: Express,
  opts: {
    root: string;
    runtimeConfig: () => RuntimeConfig | Promise<RuntimeConfig>;
    /** The page's first screen rendered on the server, when it has one (server-render.ts); else the browser renders it. */
    firstScreen?: RenderFirstScreen;
    /** Runs before the page is made (the session lookup a signed-in user's first screen needs); must never fail the page. */
    pageMiddleware?: RequestHandler[];
  },
): boolean {
  const shellDist = path.join(opts.root, 'shell', 'dist');
  const indexFile = path.join(shellDist, 'index.html');
  for (const [name, dir] of Object.entries(REMOTE_DIRS)) {
    app.use(`/remotes/${name}`, precompressedStatic(path.join(opts.root, dir, 'dist'), { fallthrough: false }));
  }
  app.get('/config.json', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await opts.runtimeConfig());
  });
  if (!fs.existsSync(indexFile)) return false;
  app.use(precompressedStatic(shellDist, { fallthrough: true }));
  const page = shellPage(fs.readFileSync(indexFile, 'utf8'));
  const sendIndex: RequestHandler = async (req, res) => {
    const config = await opts.runtimeConfig();
    const screen = await opts.firstScreen?.(req, config);
    const { html, etag, scriptHash, origins } = page(config, screen);
    // The same bytes for every response with this config: the config script is allowed by its hash, not by this
    // response's nonce, and the ETag is the page's own, so a changed config is never answered with 304.
    allowInlineScriptHash(res, scriptHash);
    allowInlineScriptHash(res, THEME_SCRIPT_HASH);
    if (screen) allowInlineScriptHash(res, START_AFTER_PAINT_HASH);
    allowRemoteOrigins(res, origins);
    // A path no page has answers 404 (the shell shows its not-found page); a remote's sub-paths are the remote's to
    // know, so they answer 200 and the remote's not-found page asks search engines not to index it.
    const status = sitePathOf(req.path).kind === 'unknown' ? 404 : 200;
    // A page rendered for a signed-in user is theirs alone: no shared cache may keep it (the ETag still revalidates
    // it in their own browser).
    const cacheControl = screen?.personal ? 'private, no-cache' : 'no-cache';
    res.status(status).vary('Cookie').set({ 'Cache-Control': cacheControl, ETag: etag }).type('html').send(html);
  };
  // Client-side routes: every GET that is not an api call or a file gets the shell page.
  app.get(/^\/(?!api\/|remotes\/|healthz$|readyz$).*/, compression(), ...(opts.pageMiddleware ?? []), sendIndex);
  return true;
}

/** SHA-256 (base64) of the theme script every shell page runs in <head>, for its Content-Security-Policy. */
const THEME_SCRIPT_HASH = crypto.createHash('sha256').update(DARK_FIRST_PAINT_SCRIPT).digest('base64');

/** The shell's entry script as the build writes it into index.html (html-webpack-plugin, `defer`). */
const ENTRY_SCRIPT = /<script defer(?:="defer")? src="([^"]+)"><\/script>/;
const ENTRY_PRELOAD_ID = 'radar-entry';
/**
 * A server-rendered page's last script: runs the entry (preloaded in <head>) after the next frame. A deferred entry
 * runs as soon as it has downloaded and the document is parsed, and its first ~60 ms of work (the federation runtime)
 * then came before the first paint in about half of all loads, later the bigger the page: the server's markup, on
 * screen before any script, is what this page is for. A tab that paints nothing (hidden, prerendering) starts it at
 * once. The safety timer is long: no frame comes while the render-blocking theme stylesheet is on its way, and a
 * 100 ms timer used to fire then on cold loads, so the entry's work came before the first paint after all.
 */
const START_AFTER_PAINT = `(function(){var done=false;function go(){if(done)return;done=true;var s=document.createElement('script');s.src=document.getElementById('${ENTRY_PRELOAD_ID}').href;document.head.appendChild(s)}if(document.visibilityState!=='visible'){go();return}requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,1000)})()`;
const START_AFTER_PAINT_HASH = crypto.createHash('sha256').update(START_AFTER_PAINT).digest('base64');

interface ShellPage {
  json: string;
  html: string;
  etag: string;
  /** SHA-256 (base64) of the runtime-config script, for the page's Content-Security-Policy. */
  scriptHash: string;
  /** Origins of the remotes served elsewhere, for the same policy. */
  origins: string[];
}

/**
 * The shell page with the runtime config injected, and the first screen the server rendered when there is one (its
 * styles in <head>, its markup in #root, the data it shows as JSON). Rebuilt only when the config's JSON or the
 * screen changes: the plain page is kept for the current config, rendered pages for the last few screens.
 */
function shellPage(template: string): (config: RuntimeConfig, screen?: FirstScreen) => ShellPage {
  let plain: ShellPage | undefined;
  const rendered = new LruCache<ShellPage>({ entries: 16, weight: 16 * 1024 * 1024, weigh: (p) => p.html.length });
  const build = (json: string, config: RuntimeConfig, screen?: FirstScreen): ShellPage => {
    const script = `window.${RUNTIME_CONFIG_GLOBAL}=${json}`;
    // html-webpack-plugin's minifier strips comment placeholders, so the script goes in before </head>.
    // Replacer functions, not strings: `$&`, `$'` or `$$` in a title or a config value must stay as they are.
    // The theme script first, so the page is in the reader's theme from its first paint (DARK_FIRST_PAINT_SCRIPT).
    // Before the page's stylesheet link (the theme's variables): a parser-inserted script waits for every stylesheet
    // above it to load, and these two need none.
    const headScripts = `<script>${DARK_FIRST_PAINT_SCRIPT}</script><script>${script}</script>`;
    let html = template.replace(/<link rel="stylesheet"|<\/head>/, (at) => `${headScripts}${at}`);
    if (screen) {
      // `inert` until the shell has hydrated the markup (bootstrap.tsx): a click or a key before then would find no
      // handler and be lost; inert content cannot be focused or clicked, so nothing is lost.
      html = html
        .replace('</head>', () => `${screen.styles}</head>`)
        .replace('<div id="root"></div>', () => `<div id="root" ${SERVER_RENDER.rootAttribute} inert>${screen.html}</div>${screen.dataScript}`);
      // The entry is downloaded at once but run only after the server's page has been painted (START_AFTER_PAINT).
      const entry = ENTRY_SCRIPT.exec(html);
      if (entry) {
        html = html
          .replace(entry[0], () => `<link rel="preload" as="script" id="${ENTRY_PRELOAD_ID}" href="${entry[1]}">`)
          .replace('</body>', () => `<script>${START_AFTER_PAINT}</script></body>`);
      }
    }
    const etag = `W/"${crypto.createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    const origins = originsOf(Object.values(config.remotes));
    return { json, html, etag, origins, scriptHash: crypto.createHash('sha256').update(script).digest('base64') };
  };
  return (config, screen) => {
    const json = JSON.stringify(config).replace(/</g, '\\u003c');
    if (!screen) {
      if (plain?.json !== json) plain = build(json, config);
      return plain;
    }
    const key = JSON.stringify([json, screen.key]);
    const hit = rendered.get(key);
    if (hit) return hit;
    const page = build(json, config, screen);
    rendered.set(key, page);
    return page;
  };
}

function precompressedStatic(root: string, { fallthrough }: { fallthrough: boolean }): RequestHandler {
  return expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: { index: false, fallthrough, setHeaders: cacheHeaders },
  }) as RequestHandler;
}

/** `file` is the file sent: `remoteEntry.js.br` for a brotli answer. */
function cacheHeaders(res: http.ServerResponse, file: string): void {
  const name = path.basename(file).replace(/\.(br|gz)$/, '');
  // Entry files and manifests must be re-read so a new deploy of a remote is picked up; hashed chunks are immutable.
  if (/^(remoteEntry\.js|main\.js|mf-manifest\.json|mf-stats\.json)$|\.html$/.test(name)) res.setHeader('Cache-Control', 'no-cache');
  else if (/\.[0-9a-f]{8,}\./.test(name)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
}
