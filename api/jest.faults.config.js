import { base } from './jest.config.js';

/**
 * `npm run test:faults`: the fault suite. Real api processes (`node dist/main.js`, so build first) against
 * their own databases, local feed servers that refuse, stall or lie, and a real SMTP server. One file at a time:
 * each runs real processes, and CI has 2 cores.
 */
export default { ...base, testMatch: ['<rootDir>/test/faults/**/*.faults.test.ts'], testTimeout: 240_000, maxWorkers: 1 };
