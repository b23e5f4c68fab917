/**
 * JavaScript per package for the files a page loaded, from the source maps the production builds emit beside every
 * file (the method of source-map-explorer): each byte of minified output belongs to the original source its mapping
 * points at, and the source path names the npm package or workspace. Unlike webpack's module stats this also splits
 * concatenated modules (webpack's scope hoisting merges a barrel and its hundreds of modules into one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { REPO_ROOT } from '../test/built-product.js';

/** URL prefix → app folder (remotes are served by the api at /remotes/<name>/). */
export const APPS: [prefix: string, dir: string][] = [
  ['/remotes/dashboard/', 'mfe-dashboard'],
  ['/remotes/admin/', 'mfe-admin'],
  ['/remotes/digest/', 'mfe-digest'],
  ['/', 'shell'],
];

const WORKSPACES: Record<string, string> = {
  shell: '@radar/shell',
  'mfe-dashboard': '@radar/mfe-dashboard',
  'mfe-admin': '@radar/mfe-admin',
  'mfe-digest': '@radar/mfe-digest',
  'shared-ui': '@radar/shared-ui',
  contracts: '@radar/contracts',
};

const RUNTIME = '(webpack + federation runtime glue)';

/**
 * `webpack://radar_shell/./node_modules/@mui/material/Button/Button.mjs` → `@mui/material`;
 * `webpack://radar_shell/../shared-ui/src/x.ts` → `@radar/shared-ui`; webpack's own runtime modules → RUNTIME.
 */
export function packageOf(source: string, app: string): string {
  const at = source.lastIndexOf('node_modules/');
  if (at >= 0) {
    const [scope, name] = source.slice(at + 'node_modules/'.length).split('/');
    if (scope === '.federation') return '@module-federation (runtime)';
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const relative = source.replace(/^webpack:\/\/(?:@[^/]+\/)?[^/]+\//, '');
  const workspace = /^\.\.\/([^/]+)\//.exec(relative)?.[1];
  if (workspace && WORKSPACES[workspace]) return WORKSPACES[workspace];
  if (relative.startsWith('./src/') || relative.startsWith('src/')) return WORKSPACES[app] ?? app;
  return RUNTIME;
}

/** package → app that shipped it → minified bytes. */
type PackageSizes = Map<string, Map<string, number>>;

function add(into: PackageSizes, name: string, app: string, bytes: number): void {
  if (bytes <= 0) return;
  const apps = into.get(name) ?? new Map<string, number>();
  apps.set(app, (apps.get(app) ?? 0) + bytes);
  into.set(name, apps);
}

/** Attributes every byte of one minified file (read with its .map) to packages. */
function attributeFile(file: string, app: string, into: PackageSizes): void {
  const code = fs.readFileSync(file, 'utf8');
  const mapFile = `${file}.map`;
  if (!fs.existsSync(mapFile)) {
    add(into, RUNTIME, app, Buffer.byteLength(code));
    return;
  }
  const lines = code.split('\n');
  const consumer = new SourceMapConsumer(JSON.parse(fs.readFileSync(mapFile, 'utf8')) as RawSourceMap);
  const byLine = new Map<number, { column: number; source: string | null }[]>();
  consumer.eachMapping((m) => {
    const list = byLine.get(m.generatedLine) ?? [];
    list.push({ column: m.generatedColumn, source: m.source });
    byLine.set(m.generatedLine, list);
  });
  lines.forEach((line, index) => {
    const mappings = (byLine.get(index + 1) ?? []).sort((a, b) => a.column - b.column);
    let cursor = 0;
    let owner = RUNTIME;
    for (const mapping of mappings) {
      add(into, owner, app, Buffer.byteLength(line.slice(cursor, mapping.column)));
      cursor = mapping.column;
      owner = mapping.source ? packageOf(mapping.source, app) : RUNTIME;
    }
    add(into, owner, app, Buffer.byteLength(line.slice(cursor)) + 1);
  });
}

/** Minified bytes per package (and per app that shipped it) of the JS files among `paths` (one page load's requests). */
export function packageSizes(paths: string[]): PackageSizes {
  const sizes: PackageSizes = new Map();
  for (const requestPath of paths) {
    const clean = requestPath.split('?')[0];
    if (!clean.endsWith('.js')) continue;
    const [prefix, dir] = APPS.find(([p]) => clean.startsWith(p))!;
    const file = path.join(REPO_ROOT, dir, 'dist', clean.slice(prefix.length));
    if (fs.existsSync(file)) attributeFile(file, dir, sizes);
  }
  return sizes;
}

/** A markdown table: minified KB per package for each page, largest first. */
export function bundleBreakdown(pages: { page: string; paths: string[] }[]): string {
  const perPage = pages.map(({ page, paths }) => ({ page, sizes: packageSizes(paths) }));
  const sum = (apps: Map<string, number> | undefined) => [...(apps?.values() ?? [])].reduce((a, b) => a + b, 0);
  const names = [...new Set(perPage.flatMap((p) => [...p.sizes.keys()]))];
  const largest = (name: string) => Math.max(...perPage.map((p) => sum(p.sizes.get(name))));
  names.sort((a, b) => largest(b) - largest(a));
  const kb = (n: number) => (n >= 50 ? (n / 1024).toFixed(1) : '–');
  // A package shipped by two apps on one page is a duplicate copy: show the split (ignoring share stubs < 1 KB).
  const cell = (apps: Map<string, number> | undefined) => {
    const parts = [...(apps ?? [])].filter(([, n]) => n >= 1024);
    return parts.length > 1 ? `${kb(sum(apps))} (${parts.map(([app, n]) => `${app} ${kb(n)}`).join(' + ')})` : kb(sum(apps));
  };
  const total = (sizes: PackageSizes) => [...sizes.values()].reduce((n, apps) => n + sum(apps), 0);
  return [
    '**JS per package** (minified KB of the JS files the median load fetched, attributed byte by byte through the source maps each build emits; a split in brackets means more than one app shipped a copy):',
    '',
    `| package | ${perPage.map((p) => `\`${p.page}\``).join(' | ')} |`,
    `|---|${perPage.map(() => '---:').join('|')}|`,
    ...names.filter((name) => largest(name) >= 512).map((name) => `| ${name} | ${perPage.map((p) => cell(p.sizes.get(name))).join(' | ')} |`),
    `| **total** | ${perPage.map((p) => `**${kb(total(p.sizes))}**`).join(' | ')} |`,
  ].join('\n');
}
