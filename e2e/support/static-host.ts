import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.map': 'application/json',
};

export interface StaticHost {
  origin: string;
  close(): Promise<void>;
}

/**
 * A plain static file server on another port, as a CDN or bucket would host a remote (docs/operations.md): CORS for
 * the shell's manifest fetch, entries and manifests revalidated, content-hashed chunks immutable. Nothing of the api.
 */
export async function startStaticHost(root: string): Promise<StaticHost> {
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
    const file = path.resolve(root, `.${urlPath}`);
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (req.method === 'OPTIONS') return void res.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET, HEAD' }).end();
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return void res.writeHead(404, cors).end();
    const name = path.basename(file);
    const cache = /^(remoteEntry\.js|mf-manifest\.json)$/.test(name)
      ? 'no-cache'
      : /\.[0-9a-f]{8,}\./.test(name)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache';
    res.writeHead(200, { ...cors, 'Content-Type': TYPES[path.extname(name)] ?? 'application/octet-stream', 'Cache-Control': cache });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Copies a built remote (its dist/) to `target` as another release: every occurrence of its version string in its
 * scripts and manifest becomes `version`, and `shared` overrides ranges in the manifest (an incompatible build). The
 * precompressed copies are left out (a plain static host serves the files as they are).
 */
export function copyRelease(dist: string, target: string, version: string, shared: Record<string, string> = {}): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as {
    metaData: { radar: { version: string; shared: Record<string, string> } };
  };
  const from = manifest.metaData.radar.version;
  fs.mkdirSync(target, { recursive: true });
  for (const name of fs.readdirSync(dist)) {
    if (/\.(br|gz)$/.test(name)) continue;
    const source = path.join(dist, name);
    if (!fs.statSync(source).isFile()) continue;
    if (!/\.(js|json)$/.test(name)) {
      fs.copyFileSync(source, path.join(target, name));
      continue;
    }
    let text = fs.readFileSync(source, 'utf8').split(from).join(version);
    if (name === 'mf-manifest.json') {
      const edited = JSON.parse(text) as typeof manifest;
      edited.metaData.radar.shared = { ...edited.metaData.radar.shared, ...shared };
      text = JSON.stringify(edited, null, 2);
    }
    fs.writeFileSync(path.join(target, name), text);
  }
}
