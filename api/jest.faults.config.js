import { base } from './jest.config.js';

/**
 * `npm run test:faults`: the fault suite. Real api processes (`node dist/main.js`, so build first) against
 * their own databases, local feed servers that refuse, stall or lie, and a real SMTP server. Two files at a time:
 * a file spends most of its time waiting on its processes, timers and sockets (one worker kept one of CI's two cores
 * busy), and no assertion is a speed: the exports file's list must answer within the pool's acquire timeout, which
 * a request queued behind the stalled exports could not.
 */
export default { ...base, testMatch: ['<rootDir>/test/faults/**/*.faults.test.ts'], testTimeout: 240_000, maxWorkers: 2 };
