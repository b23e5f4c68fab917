/**
 * The floors a page load is judged against, served beside the product (api/bench/pageload.bench.ts):
 * - the very same HTML the product sends for a page (for a guest, or with a reader's session cookie), with every
 *   `<script>` and script preload removed: what the browser paints when no JavaScript stands in its way;
 * - a plain 20-row HTML table (1 KB): the browser's own floor for a first paint on this machine.
 * Every other request (styles' fonts, icons) is passed on to the product, so the stripped page loads what the real
 * one loads but its scripts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FloorServer {
  baseUrl: string;
  /** The floor's URL of `path` as the product sends it to this reader (no cookie: a guest). */
  stripped(path: string, cookie?: { name: string; value: string }): string;
  /** The plain table's URL. */
  table: string;
  close(): Promise<void>;
}

export const PLAIN_TABLE_PATH = '/__floor/table';

/** The same HTML without anything that runs or loads script. */
export function stripScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*\bas="script"[^>]*>/gi, '')
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, '');
}

const PLAIN_TABLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Items</title></head><body><main><h1>Items</h1>
<table aria-label="Items"><thead><tr><th>Title</th><th>Status</th></tr></thead><tbody>${Array.from(
  { length: 20 },
  (_, i) => `<tr data-item-id="${i}"><td>Item ${i + 1}: a change to a Microsoft 365 service</td><td>Rolling out</td></tr>`,
).join('')}</tbody></table></main></body></html>`;

export async function startFloorServer(productUrl: string): Promise<FloorServer> {
  const pages = new Map<string, { path: string; cookie?: string }>();
  const cache = new Map<string, string>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://floor.invalid');
      if (url.pathname === PLAIN_TABLE_PATH) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PLAIN_TABLE);
        return;
      }
      const page = url.pathname.startsWith('/__floor/page/') ? pages.get(url.pathname) : undefined;
      if (page) {
        let html = cache.get(url.pathname);
        if (html === undefined) {
          const answer = await fetch(productUrl + page.path, { headers: page.cookie ? { Cookie: page.cookie } : {} });
          html = stripScripts(await answer.text());
          cache.set(url.pathname, html);
        }
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);
        return;
      }
      // Anything else the page asks for comes from the product.
      const answer = await fetch(productUrl + (req.url ?? '/'));
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!/^(content-encoding|content-length|transfer-encoding|connection)$/i.test(name)) headers[name] = value;
      });
      res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    stripped(path, cookie) {
      // The floor keeps the page's own path last, so its relative URLs and the key element's selector stay as they are.
      const key = `/__floor/page/${pages.size}${path === '/' ? '' : path}`;
      pages.set(key, { path, cookie: cookie ? `${cookie.name}=${cookie.value}` : undefined });
      return baseUrl + key;
    },
    table: baseUrl + PLAIN_TABLE_PATH,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
