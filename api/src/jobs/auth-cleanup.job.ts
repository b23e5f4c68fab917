import type { JobDefinition } from './index.js';

export const AUTH_CLEANUP_JOB = 'auth-cleanup';
const EVERY_MS = 60 * 60 * 1000;

/** Deletes expired sessions and sign-in codes older than a day (kept that long for the per-e-mail rate limit). */
export const authCleanupJob: JobDefinition = (agenda, ctx) => {
  agenda.define(AUTH_CLEANUP_JOB, async () => {
    const removed = await ctx.services.auth.cleanup();
    if (removed.sessions + removed.codes > 0) ctx.log.info(removed, 'expired sessions and sign-in codes removed');
  });
};
authCleanupJob.schedule = async (agenda) => {
  await agenda.every(EVERY_MS, AUTH_CLEANUP_JOB);
};
