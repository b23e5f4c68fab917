// CommonJS bundles of packages that require() ES-module-only dependencies. Node (20.19+) loads those in production;
// Jest's module runtime cannot ("Must use import to load ES Module"), so the tests map the package to a bundle that
// esbuild makes from the installed copy, once per installed version.
import { build } from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const cacheDir = path.resolve(here, '../node_modules/.cache/radar-jest');

/** Where the tests find sanitize-html (written by `makeCjsBundles`, named by the installed version). */
const sanitizeHtmlPackage = require.resolve('sanitize-html/package.json');
const sanitizeHtmlVersion = JSON.parse(fs.readFileSync(sanitizeHtmlPackage, 'utf8')).version;
export const SANITIZE_HTML_BUNDLE = path.join(cacheDir, `sanitize-html-${sanitizeHtmlVersion}.cjs`);

/** Makes the bundles that are missing (the global setup of every suite calls it before the tests run). */
export async function makeCjsBundles() {
  if (fs.existsSync(SANITIZE_HTML_BUNDLE)) return;
  fs.mkdirSync(cacheDir, { recursive: true });
  const partial = `${SANITIZE_HTML_BUNDLE}.${process.pid}.tmp`;
  await build({
    entryPoints: [path.join(path.dirname(sanitizeHtmlPackage), 'index.js')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: partial,
    logLevel: 'warning',
  });
  // Renamed into place, so a parallel run never reads half a file.
  fs.renameSync(partial, SANITIZE_HTML_BUNDLE);
}
