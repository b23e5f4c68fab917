/**
 * Numbers of the user interface alone (how many chips, cards or skeleton rows, how long a toast stays, how long SWR
 * keeps answers): the apps read them from here; the api never needs them, so they are not in @radar/contracts.
 */

/** Featured cards per carousel slide from the md breakpoint (one below it). */
export const CAROUSEL_CARDS_PER_SLIDE = 3;
/** Tags and services shown before a '+N'. */
export const TAG_DISPLAY_LIMIT = 2;
export const SERVICE_DISPLAY_LIMIT = 3;
/** Placeholder rows while the list loads. */
export const SKELETON_ROWS = 5;
/** The digest report's timeframes in days (Admin → Digest). */
export const DIGEST_REPORT_TIMEFRAMES = [1, 7, 30] as const;
/** The digest sign-up dialog closes this long after its success view appeared. */
export const SIGNUP_SUCCESS_CLOSE_MS = 3000;

/** SWR cache timings. */
export const CACHE = {
  freshMs: 300_000,
  keptMs: 600_000,
  listFreshMs: 120_000,
  statsFreshMs: 300_000,
  statsRefreshMs: 600_000,
  rolesFreshMs: 300_000,
} as const;

export const TOAST = { limit: 1, defaultDurationMs: 5000, removeDelayMs: 1_000_000, swipeThresholdPx: 50, maxWidthPx: 420 } as const;
