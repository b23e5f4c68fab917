import { defineConfig } from 'vitest/config';
import unit from './vitest.config.js';

/**
 * `npm run test:security`: the OWASP ASVS level 2 suite (test/security), against the real app and a real PostgreSQL,
 * on Vitest like the api suite: the same aliases, global setup and workers, each worker loading the app once. Kept out
 * of `npm test`; CI runs it on its own.
 */
export default defineConfig({
  ...unit,
  test: {
    ...unit.test,
    include: ['test/security/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 60_000,
  },
});
