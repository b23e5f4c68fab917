import { z } from 'zod';
import {
  alertWebhookPayload,
  errorBody,
  isJsonEndpoint,
  PRODUCT_NAME,
  successStatuses,
  WEBHOOK_HEADERS,
  WEBHOOK_TOLERANCE_SECONDS,
  type Endpoint,
  type OpenApiDocument,
} from '@radar/contracts';
import { SESSION_COOKIE } from '../../http/auth.js';

type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a contract: what a caller sends (`input`: before defaults
 * and coercion) or what the api answers (`output`). Types JSON cannot express become `{}` rather than failing.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `/api/items/:id` → `/api/items/{id}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted (a JSON-RPC notification: no answer)',
  302: 'Redirect',
  304: 'Not modified (the If-None-Match / If-Modified-Since validators match)',
  400: 'Invalid input: `issues` names each field',
  401: 'Not signed in, or an invalid API token',
  403: 'Missing role, foreign Origin, or an API token where tokens are not accepted',
  405: 'Method not allowed',
  503: 'Not ready',
};

function parametersOf(endpoint: Endpoint): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: rest,
        ...(typeof description === 'string' ? { description } : {}),
      });
    }
  }
  return out;
}

function responsesOf(endpoint: Endpoint): JsonSchema {
  const responses: JsonSchema = {};
  for (const status of successStatuses(endpoint)) {
    const description = STATUS_TEXT[status] ?? 'Success';
    if (isJsonEndpoint(endpoint)) {
      responses[status] =
        status === 304 ? { description } : { description, content: { 'application/json': { schema: jsonSchemaOf(endpoint.response as z.ZodType, 'output') } } };
      continue;
    }
    const mediaType = (endpoint.response as { raw: string }).raw;
    responses[status] =
      mediaType === 'redirect' || [202, 204, 304].includes(status)
        ? { description }
        : { description, content: { [mediaType]: { schema: { type: 'string' } } } };
  }
  const error = (status: number) => ({ description: STATUS_TEXT[status], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  if (endpoint.params || endpoint.query || endpoint.body) responses[400] ??= error(400);
  if (endpoint.access !== 'public' || endpoint.tokenAccess) responses[401] ??= error(401);
  if (endpoint.access !== 'public' && endpoint.access !== 'signedIn') responses[403] ??= error(403);
  responses.default = { description: 'Any other error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  return responses;
}

function securityOf(endpoint: Endpoint): JsonSchema[] {
  const bearer = endpoint.tokenAccess ? [{ bearerAuth: [] }] : [];
  // An empty requirement makes authentication optional (public endpoints).
  return endpoint.access === 'public' ? [{}, ...bearer] : [{ cookieAuth: [] }, ...bearer];
}

const ACCESS_TEXT: Record<Endpoint['access'], string> = {
  public: 'Anyone.',
  signedIn: 'Signed-in users.',
  moderator: 'Moderators and admins.',
  admin: 'Admins.',
  realAdmin: 'Users who really hold the Admin role (impersonation does not count).',
};

/**
 * The OpenAPI 3.1 document of the endpoint table: every row becomes an operation (operationId = the row's id, tag =
 * its group) whose parameters, request body and answers are the row's zod contracts converted with zod's own
 * `toJSONSchema`. Nothing here is written by hand per endpoint, so the reference cannot drift from what is mounted.
 */
export function buildOpenApiDocument(table: readonly Endpoint[], opts: { serverUrl: string; version: string }): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of table) {
    const operation: JsonSchema = {
      operationId: endpoint.id,
      tags: [endpoint.group],
      summary: endpoint.summary,
      description: `Access: ${ACCESS_TEXT[endpoint.access]}${endpoint.tokenAccess ? ' Accepts a personal API token (Authorization: Bearer).' : ''}`,
      'x-access': endpoint.access,
      'x-token-access': Boolean(endpoint.tokenAccess),
      security: securityOf(endpoint),
      responses: responsesOf(endpoint),
    };
    const parameters = parametersOf(endpoint);
    if (parameters.length) operation.parameters = parameters;
    if (endpoint.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(endpoint.body, 'input') } } };
    }
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${PRODUCT_NAME} API`,
      version: opts.version,
      description:
        'AI at Work Roadmap (formerly Microsoft 365 Roadmap) and Message Center items: list, search, filters, feeds, history, subscriptions and administration. ' +
        'Errors answer `{ "error": { "name", "message", "issues"? } }`. Read endpoints and your own subscriptions accept a personal API token ' +
        '(create one on /profile) as `Authorization: Bearer rdr_…`; the MCP server for agents is at /api/mcp.',
    },
    servers: [{ url: opts.serverUrl }],
    paths,
    webhooks: alertWebhooks(),
    components: {
      schemas: { Error: jsonSchemaOf(errorBody, 'output'), AlertWebhookPayload: jsonSchemaOf(alertWebhookPayload, 'output') },
      securitySchemes: {
        cookieAuth: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by passwordless sign-in' },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'rdr_…', description: 'A personal API token from /profile' },
      },
    },
    tags: [...new Set(table.map((e) => e.group))].map((name) => ({ name })),
  };
}

/**
 * OpenAPI 3.1 `webhooks`: what M365 Radar POSTs to a generic webhook channel (a saved search's alert or a test),
 * its body schema from the contracts and the signature headers, with how a receiver verifies them.
 */
function alertWebhooks(): Record<string, unknown> {
  const header = (name: string, description: string, schema: JsonSchema = { type: 'string' }) => ({ name, in: 'header', required: true, description, schema });
  return {
    radarAlert: {
      post: {
        operationId: 'webhooks.radarAlert',
        tags: ['alerts'],
        summary: 'A saved-search alert (or a test) sent to a generic webhook channel',
        description:
          `Verify before trusting it: compute HMAC-SHA256 with the channel's signing secret (shown once when the channel was added) over ` +
          `\`<${WEBHOOK_HEADERS.timestamp}>.<raw body>\`, hex-encode it, and compare it in constant time with the part of ` +
          `\`${WEBHOOK_HEADERS.signature}\` after \`v1=\`; refuse a timestamp more than ${WEBHOOK_TOLERANCE_SECONDS} seconds from your clock ` +
          `(replay). \`${WEBHOOK_HEADERS.delivery}\` is the same on every retry of one delivery: drop duplicates by it. Answer 2xx quickly; ` +
          'network errors, 429 (Retry-After is honoured, up to an hour) and 5xx are retried with backoff, any other status is not, ' +
          'and redirects are not followed. docs/notifications.md has verification code for Node.js and Python.',
        parameters: [
          header(WEBHOOK_HEADERS.signature, '`v1=` followed by the hex HMAC-SHA256 of `<timestamp>.<body>`'),
          header(WEBHOOK_HEADERS.timestamp, 'When the request was signed, in Unix seconds', { type: 'string', pattern: '^[0-9]+$' }),
          header(WEBHOOK_HEADERS.delivery, "The delivery id (also the body's `id`), unchanged across retries"),
          header(WEBHOOK_HEADERS.event, "`radar.alert` or `radar.test` (also the body's `type`)", { type: 'string', enum: ['radar.alert', 'radar.test'] }),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AlertWebhookPayload' } } } },
        responses: { '2XX': { description: 'Received (any other answer counts as a failed delivery)' } },
      },
    },
  };
}
