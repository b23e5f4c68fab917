import { base, WORKERS } from './jest.config.js';

/**
 * `npm run test:security`: the OWASP ASVS level 2 suite (test/security), against the real app and a real PostgreSQL.
 * Kept out of `npm test`; CI runs it on its own.
 */
export default {
  ...base,
  testMatch: ['<rootDir>/test/security/**/*.test.ts'],
  testTimeout: 60_000,
  maxWorkers: WORKERS,
};
