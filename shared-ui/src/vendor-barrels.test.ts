import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The apps' webpack builds resolve `@mui/material` and `react-router(-dom)` to the barrels in build-config/vendor (see
 * build-config/sharing.cjs). A name an app imports but no barrel lists fails the build; this says which file to add it to,
 * and keeps the lists honest (real exports, MUI names in exactly one part).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { barrelNames } = require('../../build-config/vendor/names.cjs') as { barrelNames: (file: string) => string[] };

const repoRoot = path.resolve(__dirname, '../..');
const APP_SOURCES = ['shell/src', 'shared-ui/src', 'mfe-dashboard/src', 'mfe-admin/src', 'mfe-digest/src'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // shell/src/server is the server render's entry, built for Node without the barrels (build-config/federation.cjs).
    if (entry.isDirectory()) return ['test', 'test-utils', 'server'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Value names imported from `module` across the apps' production sources, with the files importing each. */
function importedNames(modules: RegExp): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const file of APP_SOURCES.flatMap((dir) => sourceFiles(path.join(repoRoot, dir)))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
      if (match[1] || !modules.test(match[3])) continue;
      for (const raw of match[2].split(',')) {
        const name = raw.trim().split(/\s+as\s+/)[0];
        if (!name || name.startsWith('type ')) continue;
        names.set(name, [...(names.get(name) ?? []), path.relative(repoRoot, file)]);
      }
    }
  }
  return names;
}

describe('vendor barrels', () => {
  const core = barrelNames('mui-core.mjs');
  const extra = barrelNames('mui-extra.mjs');
  const more = barrelNames('mui-more.mjs');
  const rare = barrelNames('mui-rare.mjs');
  const router = barrelNames('router.mjs');

  it('list every MUI name the apps import, in exactly one part', () => {
    const missing = [...importedNames(/^@mui\/material$/)].filter(([name]) => ![...core, ...extra, ...more, ...rare].includes(name));
    expect(
      missing.map(
        ([name, files]) =>
          `${name} (${files.join(', ')}): add it to build-config/vendor/mui-more.mjs, mui-extra.mjs if the dashboard's first screen needs it, or mui-core.mjs if a first paint does`,
      ),
    ).toEqual([]);
    const parts = [...core, ...extra, ...more, ...rare];
    expect(parts.filter((name, i) => parts.indexOf(name) !== i)).toEqual([]);
  });

  it('list every React Router name the apps import', () => {
    const missing = [...importedNames(/^react-router(-dom)?$/)].filter(([name]) => !router.includes(name));
    expect(missing.map(([name, files]) => `${name} (${files.join(', ')}): add it to build-config/vendor/router.mjs`)).toEqual([]);
  });

  it('list only names the packages export', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mui = require('@mui/material') as Record<string, unknown>;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const reactRouter = require('react-router') as Record<string, unknown>;
    expect([...core, ...extra, ...more, ...rare].filter((name) => mui[name] === undefined)).toEqual([]);
    expect(router.filter((name) => reactRouter[name] === undefined)).toEqual([]);
  });
});
