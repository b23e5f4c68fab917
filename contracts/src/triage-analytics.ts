import { z } from './zod.js';
import { CHANGE_HEALTH_COSTS } from './change-health.js';

// How a team's triage fares: open, overdue and done per day, and the change-health score of its open records.

/** GET /api/triage/analytics: which tenant's triage (all, one tenant, or the records of no tenant such as the roadmap's). */
export const triageAnalyticsQuery = z.object({
  tenant: z
    .union([z.literal('all'), z.literal('none'), z.coerce.number().int().positive()], { error: "tenant must be 'all', 'none' or a tenant id" })
    .default('all'),
  days: z.coerce.number().int().min(7, 'days must be 7 or more').max(730, 'days must be at most 730').default(90),
});
/** Open, overdue, done and not relevant per day, as counted that day; the tenants to choose from. */
export const triageAnalyticsResponse = z.object({
  tenants: z.array(z.object({ id: z.number().int(), name: z.string() })),
  days: z.array(
    z.object({
      date: z.string(),
      open: z.number().int(),
      overdue: z.number().int(),
      done: z.number().int(),
      notRelevant: z.number().int(),
      /** The change-health score of that day (null: a day counted before the score existed). */
      score: z.number().int().nullable(),
    }),
  ),
});

/** What costs a change-health score its points (docs/product/change-health.md). */
export const changeHealthCost = z.object({
  kind: z.enum(CHANGE_HEALTH_COSTS),
  label: z.string(),
  /** How many open records it counts. */
  records: z.number().int(),
  points: z.number().int(),
});
export type ChangeHealthCost = z.infer<typeof changeHealthCost>;
/** GET /api/triage/health: whose score (every tenant the caller may see, the records of no tenant, or one tenant). */
export const changeHealthQuery = z.object({
  tenant: z
    .union([z.literal('all'), z.literal('none'), z.coerce.number().int().positive()], { error: "tenant must be 'all', 'none' or a tenant id" })
    .default('all'),
});
export type ChangeHealthQuery = z.input<typeof changeHealthQuery>;
/** A 0–100 score of the open triage now, what costs its points (largest first), and its value on each counted day. */
export const changeHealthResponse = z.object({
  score: z.number().int(),
  open: z.number().int(),
  costs: z.array(changeHealthCost),
  trend: z.array(z.object({ date: z.string(), score: z.number().int() })),
});
export type ChangeHealthResponse = z.infer<typeof changeHealthResponse>;
export type TriageAnalyticsResponse = z.infer<typeof triageAnalyticsResponse>;
export type TriageAnalyticsQuery = z.input<typeof triageAnalyticsQuery>;
