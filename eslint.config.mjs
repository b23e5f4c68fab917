// One flat config for every package: typescript-eslint strict everywhere; React hooks and jsx-a11y for the apps;
// eslint-config-prettier last, so formatting is Prettier's alone. `npm run lint` allows no warnings.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const apps = ['shell', 'shared-ui', 'mfe-dashboard', 'mfe-admin', 'mfe-digest'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-server/**',
      '**/coverage/**',
      '**/.data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      '**/release/**',
      '.nx/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter or binding that is deliberately unused (a callback's fixed signature).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-console': 'error',
    },
  },
  {
    files: apps.map((app) => `${app}/src/**/*.{ts,tsx}`),
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      ...jsxA11y.flatConfigs.strict.rules,
      // Moving focus into a dialog's first field when it opens is the WAI-ARIA dialog pattern; MUI components
      // (TextField, Button) take autoFocus for exactly that. A raw DOM element still may not.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    // Scripts the api serves to browsers as they are (the API reference page).
    files: ['api/src/**/assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    // CommonJS build and test helpers (webpack federation helper, jest presets and configs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // A hand-written source file stays short enough to read whole: past 400 lines (every line counts), split it by
    // responsibility into modules beside it. Tests and generated files are not held to it.
    files: ['*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.spec.{ts,tsx}', '**/test/**', '**/test-utils/**', '**/*.generated.{ts,tsx}', '**/migrations/**'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Tests and test support run in jest or Playwright; printing is how a few of them report.
    files: ['**/*.test.{ts,tsx}', '**/test/**', '**/test-utils/**', 'e2e/**', 'api/test/**', 'api/bench/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
