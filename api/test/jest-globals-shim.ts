/**
 * The api suite runs on Vitest (vitest.config.ts), its files written against `@jest/globals`: the config points that
 * import here. Vitest's globals have jest's names and behaviour; `jest` is Vitest's `vi` (spyOn, fn, fake timers).
 * The security suite does too (vitest.security.config.ts); the real-data and fault suites still run on jest
 * (jest.*.config.js), from the same files' imports.
 */
export { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test, vi as jest } from 'vitest';
