import { z } from './zod.js';

/** GET /api/openapi.json: an OpenAPI 3.1 document generated from the endpoint table (checked loosely here). */
export const openApiDocument = z.looseObject({
  openapi: z.string().startsWith('3.1'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export type OpenApiDocument = z.infer<typeof openApiDocument>;
