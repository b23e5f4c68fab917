import { z } from './zod.js';

/**
 * One check of a connection test (Admin → Tenants and Admin → Trackers): what was tried and, when it failed,
 * exactly what is missing, such as which permission to grant or which setting to choose again.
 */
export const connectionCheck = z.object({
  /** What was checked: a tenant's capability (`token`, `messages`, `health`, `licences`) or a tracker's step (`Sign-in`, `Project`, …). */
  name: z.string(),
  ok: z.boolean(),
  /** What it found, or what is missing and how to fix it. */
  message: z.string(),
});
export type ConnectionCheck = z.infer<typeof connectionCheck>;

/** POST …/test of a tenant or tracker: each check with what it found; `ok` when every check that is not optional passed. */
export const connectionTestResult = z.object({
  ok: z.boolean(),
  /** One line for the whole test: connected, or which checks stand in the way. */
  message: z.string(),
  checks: z.array(connectionCheck),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResult>;

/**
 * The answer of a test from its checks. `optional` names checks that may fail without the connection failing (a tenant's
 * licences), so the two tests judge and word their outcome alike.
 */
export function connectionTestOf(checks: ConnectionCheck[], optional: readonly string[] = []): ConnectionTestResult {
  const failed = checks.filter((c) => !c.ok);
  const blocking = failed.filter((c) => !optional.includes(c.name));
  const ok = checks.length > 0 && blocking.length === 0;
  const message = !ok
    ? `Not ready: ${blocking.map((c) => c.name).join(', ') || 'nothing was checked'}`
    : failed.length === 0
      ? 'Connected: every check passed'
      : `Connected; optional ${failed.map((c) => c.name).join(', ')} failed`;
  return { ok, message, checks };
}
