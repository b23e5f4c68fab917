import type { z } from 'zod';
import { inputErrorFromZod } from './error-middleware.js';

/** Parses a request part with its contract; a failure is a 400 naming the field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw inputErrorFromZod(result.error);
  return result.data;
}
