import { z } from './zod.js';

/** Every error the api answers: `{ error: { name, message, issues? } }`. */
export const errorBody = z.object({
  error: z.object({
    name: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** `{ success, message }`, the shape the sign-in client and several admin actions expect. */
export const resultMessage = z.object({ success: z.boolean(), message: z.string() });
export type ResultMessage = z.infer<typeof resultMessage>;

export const messageOnly = z.object({ message: z.string() });
export type MessageOnly = z.infer<typeof messageOnly>;

/** Accepts `a,b` or repeated query keys (`?a=1&a=2`) and yields a trimmed, non-empty string list. */
export const stringList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean));
export type StringList = z.output<typeof stringList>;

/** Query-string booleans: 'true'/'false'/'1'/'0'. */
export const queryBoolean = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');
export type QueryBoolean = z.output<typeof queryBoolean>;

export const email = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Please enter a valid email address' }).max(254, 'Please enter a valid email address'));
export type Email = z.output<typeof email>;

export const isoDate = z.string().datetime({ offset: true });
export type IsoDate = z.infer<typeof isoDate>;
export const idParam = z.coerce.number().int().positive();
export type IdParam = z.infer<typeof idParam>;

/** Route params `{ id }` of a numeric resource; a bad id is a 400 naming `id`. */
export const idParams = z.object({
  id: z.coerce.number({ error: 'id must be a positive whole number' }).int('id must be a positive whole number').positive('id must be a positive whole number'),
});
export type IdParams = z.infer<typeof idParams>;

/** GET /healthz: the process answers. */
export const healthResponse = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponse>;
/**
 * GET /readyz: the process can serve requests (load balancers route on it): 200 `ready`, or 503 with what is wrong
 * (shutting down, the pool exhausted, the database unreachable).
 */
export const readyResponse = z.looseObject({ status: z.string(), database: z.string().optional(), reason: z.string().optional() });
export type ReadyResponse = z.infer<typeof readyResponse>;

/** A query with a one-click unsubscribe or confirmation token. */
export const tokenQuery = z.object({ token: z.string().max(2000).optional() });
export type TokenQuery = z.infer<typeof tokenQuery>;
