import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The apps depend on this package at its exact version. npm resolves a workspace dependency only while the version
 * asked for is the one in the workspace: otherwise a fresh `npm install` asks the registry for it and fails. Bump
 * the apps' pins (and package-lock.json) with this package's version.
 */
const repoRoot = path.resolve(__dirname, '../..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, unknown>;
const APPS = ['shell', 'mfe-dashboard', 'mfe-admin', 'mfe-digest'];

describe('workspace pins of @radar/shared-ui', () => {
  const { version } = readJson('shared-ui/package.json') as { version: string };

  it.each(APPS)('%s asks for the version in the workspace', (app) => {
    const { dependencies = {} } = readJson(`${app}/package.json`) as { dependencies?: Record<string, string> };
    expect(dependencies['@radar/shared-ui']).toBe(version);
  });

  it('package-lock.json records the same version', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, { version?: string; dependencies?: Record<string, string> }> };
    expect(lock.packages['shared-ui']?.version).toBe(version);
    for (const app of APPS) expect(lock.packages[app]?.dependencies?.['@radar/shared-ui']).toBe(version);
  });
});
