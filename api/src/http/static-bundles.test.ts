import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import { DARK_FIRST_PAINT_SCRIPT, type RuntimeConfig } from '@radar/contracts';
import { loadConfig } from '../config.js';
import { securityHeaderList, securityHeaders } from './security-headers.js';
import { mountStaticBundles } from './static-bundles.js';

/**
 * Real files in a temporary STATIC_ROOT laid out like the builds (each file with its .br and .gz copy, as
 * build-config/federation.cjs writes them), served by a real Express app.
 */
let root: string;
let config: RuntimeConfig;
let app: express.Express;
let server: http.Server;
let port: number;

const ENTRY = `window.radar_dashboard=${JSON.stringify('x'.repeat(2000))};`;
const CHUNK = `console.log(${JSON.stringify('chunk '.repeat(400))});`;
const MAIN = `import('./bootstrap');${' '.repeat(1500)}`;

function write(file: string, text: string, { compressed = true } = {}) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  if (!compressed) return;
  fs.writeFileSync(`${full}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${full}.gz`, zlib.gzipSync(text));
}

/** The bytes really sent (supertest and fetch would decompress them). */
function raw(file: string, acceptEncoding: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${port}${file}`, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The theme's stylesheet, as the shell's build links it (build-config's federation.cjs). */
const THEME_LINK = '<link rel="stylesheet" href="/theme.0123abcd.css" data-radar-theme>';

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-static-'));
  // Over compression's 1 KB threshold, as a page with inlined data is.
  const noscript = `<noscript>${'M365 Radar needs JavaScript. '.repeat(50)}</noscript>`;
  write(
    'shell/dist/index.html',
    `<!doctype html><html><head><title>M365 Radar</title>${THEME_LINK}</head><body>${noscript}<div id="root"></div></body></html>`,
    {
      compressed: false,
    },
  );
  write('shell/dist/main.js', MAIN);
  write('shell/dist/349.6f0b05dc.js', CHUNK);
  write('mfe-dashboard/dist/remoteEntry.js', ENTRY);
  write('mfe-dashboard/dist/mf-manifest.json', JSON.stringify({ id: 'radar_dashboard', pad: 'y'.repeat(2000) }));
  write('mfe-dashboard/dist/603.4ff727fc.js', CHUNK);
  write('mfe-dashboard/dist/small.abcdef12.js', 'x()', { compressed: false });
  config = {
    remotes: { dashboard: '/remotes/dashboard/mf-manifest.json', admin: '/remotes/admin/mf-manifest.json', digest: '/remotes/digest/mf-manifest.json' },
    supportEmail: 'support@example.com',
    sisterProductUrl: 'https://example.com/',
    sisterProductName: 'Sister',
  };
  app = express();
  mountStaticBundles(app, { root, runtimeConfig: () => config });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

describe('static bundles: precompressed files', () => {
  it('sends the brotli copy when the browser accepts it, with Content-Encoding, the original type and Vary', async () => {
    const res = await raw('/remotes/dashboard/603.4ff727fc.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(CHUNK);
  });

  it('falls back to gzip, then to the plain file', async () => {
    const gz = await raw('/main.js?2ee68315', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(MAIN);
    const plain = await raw('/main.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(MAIN);
    const none = await raw('/remotes/dashboard/small.abcdef12.js', 'br');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString()).toBe('x()');
  });

  it('marks hashed chunks immutable and revalidates entries and manifests with their ETag (304)', async () => {
    const chunk = await request(app).get('/remotes/dashboard/603.4ff727fc.js').set('Accept-Encoding', 'br');
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const file of ['/remotes/dashboard/remoteEntry.js', '/remotes/dashboard/mf-manifest.json', '/main.js']) {
      const first = await request(app).get(file).set('Accept-Encoding', 'br');
      expect(first.headers['cache-control']).toBe('no-cache');
      expect(first.headers.etag).toBeTruthy();
      const again = await request(app).get(file).set('Accept-Encoding', 'br').set('If-None-Match', first.headers.etag);
      expect(again.status).toBe(304);
      // Another encoding is another representation: its ETag differs, so a cached brotli copy is never reused for it.
      const gz = await request(app).get(file).set('Accept-Encoding', 'gzip');
      expect(gz.headers.etag).not.toBe(first.headers.etag);
    }
  });

  it('answers a missing remote file 404 instead of the shell page', async () => {
    const res = await request(app).get('/remotes/dashboard/nope.js');
    expect(res.status).toBe(404);
  });
});

describe('static bundles: the shell page', () => {
  it('injects the runtime config, and revalidates the page with an ETag that follows the config', async () => {
    const first = await request(app).get('/dashboard').set('Accept-Encoding', 'identity');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.text).toContain(`<script>window.__RADAR_CONFIG__=${JSON.stringify(config)}</script>${THEME_LINK}</head>`);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    expect((await request(app).get('/weekly-digest').set('If-None-Match', etag)).status).toBe(304);

    config = { ...config, remotes: { ...config.remotes, admin: 'https://cdn.example.com/admin/mf-manifest.json' } };
    const changed = await request(app).get('/dashboard').set('If-None-Match', etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.text).toContain('https://cdn.example.com/admin/mf-manifest.json');
  });

  it("allows the page's config and theme scripts by their hashes under the CSP, so every response is the same bytes", async () => {
    const secured = express();
    secured.use(securityHeaders(securityHeaderList(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }))));
    mountStaticBundles(secured, { root, runtimeConfig: () => config });
    const first = await request(secured).get('/').set('Accept-Encoding', 'identity');
    const second = await request(secured).get('/').set('Accept-Encoding', 'identity');
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
    const scripts = [...first.text.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
    // The theme first (the page is in the reader's theme from its first paint), then the config.
    expect(scripts).toEqual([DARK_FIRST_PAINT_SCRIPT, expect.stringMatching(/^window\.__RADAR_CONFIG__=/)]);
    // Both before the stylesheet link: a script after a stylesheet waits for it to load before it runs.
    expect(first.text.indexOf(THEME_LINK)).toBeGreaterThan(first.text.lastIndexOf('</script>'));
    const scriptSrc = /(?:^|;)\s*script-src\s([^;]*)/.exec(String(first.headers['content-security-policy']))![1];
    for (const script of scripts) expect(scriptSrc).toContain(`'sha256-${crypto.createHash('sha256').update(script).digest('base64')}'`);
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect((await request(secured).get('/').set('If-None-Match', first.headers.etag)).status).toBe(304);
  });

  it('answers 404 for a path no page has, 200 for pages, share links and the sub-paths a remote decides', async () => {
    for (const path of ['/this/route/does-not-exist', '/dashboards', '/roadmap', '/roadmap/1/2', '/favicon.ico', '/test-moderator/x']) {
      const res = await request(app).get(path).set('Accept-Encoding', 'identity');
      expect([path, res.status]).toEqual([path, 404]);
      // Still the shell page: the browser shows the not-found page in the site's layout.
      expect(res.text).toContain('window.__RADAR_CONFIG__=');
    }
    for (const path of ['/', '/terms/', '/dashboard', '/dashboard/nowhere', '/admin/users', '/weekly-digest', '/roadmap/412345', '/message/MC1']) {
      expect([path, (await request(app).get(path)).status]).toEqual([path, 200]);
    }
  });

  it('compresses the page when the browser accepts it', async () => {
    const res = await raw('/', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.body).toString()).toContain('window.__RADAR_CONFIG__=');
  });
});
