import type { Config } from '../config.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * How long a session lives (docs/auth.md, docs/security.md):
 * - idle timeout, sliding: SESSION_TTL_DAYS, or ADMIN_SESSION_IDLE_HOURS for a user who really holds Admin;
 * - absolute lifetime from sign-in: SESSION_ABSOLUTE_DAYS, however active the session is.
 * `expires_at` in the database is always the earlier of the two, so an expired session is refused by one comparison.
 */
export interface SessionPolicy {
  idleMs(isAdmin: boolean): number;
  absoluteMs: number;
  /** A session used this long after its last refresh is refreshed (one write per interval, not per request). */
  slideAfterMs(isAdmin: boolean): number;
  /** The expiry of a session signed in at `createdAt`, used at `now`. */
  expiresAt(createdAt: Date, now: Date, isAdmin: boolean): Date;
}

export function sessionPolicy(config: Pick<Config, 'SESSION_TTL_DAYS' | 'SESSION_ABSOLUTE_DAYS' | 'ADMIN_SESSION_IDLE_HOURS'>): SessionPolicy {
  const idleMs = (isAdmin: boolean) => (isAdmin ? config.ADMIN_SESSION_IDLE_HOURS * HOUR : config.SESSION_TTL_DAYS * DAY);
  const absoluteMs = config.SESSION_ABSOLUTE_DAYS * DAY;
  return {
    idleMs,
    absoluteMs,
    slideAfterMs: (isAdmin) => Math.min(HOUR, idleMs(isAdmin) / 4),
    expiresAt: (createdAt, now, isAdmin) => new Date(Math.min(now.getTime() + idleMs(isAdmin), createdAt.getTime() + absoluteMs)),
  };
}

/** The session cookie: `__Host-` prefixed over https (Secure, Path=/, no Domain: no subdomain can set or shadow it). */
export const SESSION_COOKIE = 'radar_session';

export function sessionCookieName(publicUrl: string): string {
  return isHttps(publicUrl) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

export function isHttps(publicUrl: string | undefined): boolean {
  return Boolean(publicUrl?.startsWith('https:'));
}
