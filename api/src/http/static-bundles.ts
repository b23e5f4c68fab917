import express, { type Express, type RequestHandler } from 'express';
import fs from 'node:fs';
import path from 'node:path';
import { RUNTIME_CONFIG_GLOBAL, type RuntimeConfig } from '@radar/contracts';
import { nonceOf } from './security-headers.js';

export const REMOTE_DIRS = { dashboard: 'mfe-dashboard', admin: 'mfe-admin', digest: 'mfe-digest' } as const;

/**
 * Serves the built shell at / and each remote's dist at /remotes/<name>/, and fills the runtime configuration
 * (where the remotes are) into the shell's index.html, so a remote can ship without rebuilding the shell.
 */
export function mountStaticBundles(app: Express, opts: { root: string; runtimeConfig: () => RuntimeConfig }): boolean {
  const shellDist = path.join(opts.root, 'shell', 'dist');
  const indexFile = path.join(shellDist, 'index.html');
  for (const [name, dir] of Object.entries(REMOTE_DIRS)) {
    const dist = path.join(opts.root, dir, 'dist');
    app.use(`/remotes/${name}`, express.static(dist, { index: false, fallthrough: false, setHeaders: remoteHeaders }));
  }
  app.get('/config.json', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(opts.runtimeConfig());
  });
  if (!fs.existsSync(indexFile)) return false;
  const template = fs.readFileSync(indexFile, 'utf8');
  app.use(express.static(shellDist, { index: false, setHeaders: remoteHeaders }));
  // The runtime-config script carries this response's CSP nonce: the policy allows no other inline script.
  const sendIndex: RequestHandler = (_req, res) => {
    const json = JSON.stringify(opts.runtimeConfig()).replace(/</g, '\\u003c');
    const html = template.replace('</head>', `<script nonce="${nonceOf(res)}">window.${RUNTIME_CONFIG_GLOBAL}=${json}</script></head>`);
    res.set('Cache-Control', 'no-cache').type('html').send(html);
  };
  // Client-side routes: every GET that is not an api call or a file gets the shell page.
  app.get(/^\/(?!api\/|remotes\/|healthz$|readyz$).*/, sendIndex);
  return true;
}

function remoteHeaders(res: express.Response, file: string): void {
  // Entry files and manifests must be re-read so a new deploy of a remote is picked up; hashed chunks are immutable.
  if (/remoteEntry\.js$|mf-manifest\.json$|\.html$/.test(file)) res.setHeader('Cache-Control', 'no-cache');
  else if (/\.[0-9a-f]{8,}\./.test(path.basename(file))) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
}
