/**
 * The relevance thresholds (relevance.ts applies them; DEFAULT_RELEVANCE_THRESHOLDS there). Apart from relevance.ts so
 * the computation stays free of zod for the pages that only show a level. Each message names its field, so a bad
 * value is a 400 that says which.
 */
import { z } from './zod.js';

const share = (field: string) => {
  const message = `${field} must be a share above 0 and at most 1 (0.5 is 50 %)`;
  return z.number({ error: message }).gt(0, message).lte(1, message);
};
const users = (field: string) => {
  const message = `${field} must be a whole number of people, 1 or more`;
  return z.number({ error: message }).int(message).min(1, message);
};

export const relevanceThresholds = z
  .object({ highShare: share('highShare'), highUsers: users('highUsers'), mediumShare: share('mediumShare'), mediumUsers: users('mediumUsers') })
  .strict()
  .superRefine((t, ctx) => {
    if (t.mediumShare > t.highShare) ctx.addIssue({ code: 'custom', path: ['mediumShare'], message: 'mediumShare must not be above highShare' });
    if (t.mediumUsers > t.highUsers) ctx.addIssue({ code: 'custom', path: ['mediumUsers'], message: 'mediumUsers must not be above highUsers' });
  });

/**
 * A workload's level: High when at least `highShare` of its licensed users were active or at least `highUsers`
 * people were, else Medium at `mediumShare` / `mediumUsers`, else Low. A share counts only when the licensed users
 * were read.
 */
export type RelevanceThresholds = z.infer<typeof relevanceThresholds>;
