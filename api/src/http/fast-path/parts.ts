/** The parts of the fast path FAST_PATH can turn on (index.ts says what each does). */
export const FAST_PATH_PARTS = ['list-lane'] as const;
export type FastPathPart = (typeof FAST_PATH_PARTS)[number];
