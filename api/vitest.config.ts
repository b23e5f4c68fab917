import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * `npm test` in the api: the unit and api suite on Vitest. Each worker loads the app's modules once and runs its
 * files one after another (`isolate: false`): under jest's ESM mode every file loaded them again (about 2 s a file,
 * half the suite's CPU). Files share nothing else: each clones its own database from the template the global setup
 * migrates, and every server listens on a free port. Measured on 2 cores, the same 113 files and 923 tests: jest
 * 470 s (895 busy CPU seconds), Vitest 204 s (362) (docs/operations.md, "CI and build times").
 */
export default defineConfig({
  resolve: {
    alias: {
      '@radar/contracts': path.resolve(here, '../contracts/src/index.ts'),
      '@jest/globals': path.resolve(here, 'test/jest-globals-shim.ts'),
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/real-data/**', 'test/security/**', 'test/faults/**'],
    globalSetup: ['test/vitest-global-setup.mjs'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
  },
});
