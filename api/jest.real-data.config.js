import { base } from './jest.config.js';

/** `npm run test:real-data`: the recorded real feeds in ../shared/fixtures/m365 through the product. */
export default { ...base, testMatch: ['<rootDir>/test/real-data/**/*.test.ts'], testTimeout: 300_000 };
