// Jest setup shared by the front-end packages: jsdom, @swc/jest to CommonJS (every front-end dependency ships
// CommonJS, so no ESM mode is needed here), contracts from source, and the jest-dom matchers.
const os = require('node:os');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..');

/** @param {string} rootDir the package folder */
module.exports = function frontendJestConfig(rootDir) {
  return {
    rootDir,
    testEnvironment: 'jsdom',
    roots: ['<rootDir>/src'],
    testMatch: ['**/*.test.ts', '**/*.test.tsx'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            target: 'es2022',
            transform: { react: { runtime: 'automatic' } },
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    moduleNameMapper: {
      '^@radar/contracts$': path.join(repoRoot, 'contracts/src/index.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
      '\\.css$': 'identity-obj-proxy',
    },
    setupFiles: [path.join(__dirname, 'src/test/polyfills.ts')],
    setupFilesAfterEnv: [path.join(__dirname, 'src/test/setup.ts')],
    // MUI menus and dialogs are slow to render in jsdom on a busy 2-core machine.
    testTimeout: 30000,
    // Two workers even on two cores, where jest would pick one: a jsdom file is CPU-bound, and with one worker the
    // second core sat idle (docs/operations.md, "CI").
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testEnvironmentOptions: { customExportConditions: ['browser', 'require', 'default'] },
  };
};
