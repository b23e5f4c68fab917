import type { ZodType } from 'zod';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import {
  errorBody,
  isJsonEndpoint,
  successStatuses,
  type Access,
  type BodyOf,
  type Endpoint,
  type ParamsOf,
  type QueryOf,
  type ResponseInput,
} from '@radar/contracts';
import { ROLE_NAMES } from '@radar/contracts';
import { hasRole, type RequestAuth } from './auth.js';
import { tokenAccessCheck } from './bearer-auth.js';
import { requireJsonBody } from './body-type.js';
import { AuthenticationError, NotAllowedError } from '../lib/errors.js';
import { parse } from './validate.js';
import { SECOND_FACTOR_MESSAGES, SecondFactorRequiredError } from './second-factor.js';

/** JSON text already compressed by the handler: sent with its Content-Encoding (the /api compression passes it). */
export interface EncodedJson {
  encoding: string;
  body: Buffer;
}

/** An answer with a status other than the endpoint's first success status, or JSON text already serialised. */
export class Reply<T = unknown> {
  private constructor(
    readonly status: number,
    readonly body: T | undefined,
    readonly jsonText: string | Buffer | undefined,
    readonly encoded?: EncodedJson,
  ) {}
  /** `body` sent with `status` (e.g. 201 Created, or a 502 error body that carries the failed run). */
  static status<T>(status: number, body: T): Reply<T> {
    return new Reply(status, body, undefined);
  }
  /**
   * JSON the handler serialised itself (the list sends cached answers); sent as is, or as its `encoded` copy when
   * given (the contract check in tests reads `text`).
   */
  static json(text: string | Buffer, status = 200, encoded?: EncodedJson): Reply<never> {
    return new Reply<never>(status, undefined, text, encoded);
  }
}

type AuthFor<A extends Access> = A extends 'public' ? RequestAuth | null : RequestAuth;

/** What a handler receives: the request parts parsed by the endpoint's schemas, and who is calling. */
export interface HandlerArgs<E extends Endpoint> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  /** The caller; never null on endpoints that require sign-in. */
  auth: AuthFor<E['access']>;
  req: Request;
  res: Response;
}

/** A JSON endpoint's handler returns the answer; a raw one (CSV, HTML, redirect) writes `res` itself. */
export type EndpointHandler<E extends Endpoint> = (
  args: HandlerArgs<E>,
) => E['response'] extends { raw: string } ? Promise<void> | void : Promise<ResponseInput<E> | Reply> | ResponseInput<E> | Reply;

export interface EndpointImplementation {
  endpoint: Endpoint;
  handler: EndpointHandler<Endpoint>;
  /** Runs after the access check and before the body is parsed (rate limiters). */
  middleware: RequestHandler[];
  /** False when the endpoint is switched off in this configuration: it answers 404 like an unknown route. */
  enabled: boolean;
  /** A GET answered from the caller alone (`implementCallerRead`): also answerable in-process (`createCallerReads`). */
  read?: (auth: RequestAuth | null) => unknown;
}

/** Binds a handler to a row of the endpoint table. */
export function implement<E extends Endpoint>(
  endpoint: E,
  handler: EndpointHandler<E>,
  options: { middleware?: RequestHandler[]; enabled?: boolean } = {},
): EndpointImplementation {
  return {
    endpoint,
    handler: handler as unknown as EndpointHandler<Endpoint>,
    middleware: options.middleware ?? [],
    enabled: options.enabled ?? true,
  };
}

/**
 * A GET whose answer depends on the caller alone: no params, query or body, nothing read from the request and nothing
 * written to the response but the answer. Besides its route, the server render answers it in-process for a signed-in
 * user's first screen (`createCallerReads`), with the same access rule, so the page starts from exactly what the
 * browser's own request would get.
 */
export function implementCallerRead<E extends Endpoint & { method: 'GET' }>(
  endpoint: E,
  read: (auth: AuthFor<E['access']>) => Promise<ResponseInput<E>> | ResponseInput<E>,
): EndpointImplementation {
  if (endpoint.params || endpoint.query || endpoint.body || !isJsonEndpoint(endpoint)) throw new Error(`${endpoint.id} is not answered from the caller alone`);
  const readAs = read as (auth: RequestAuth | null) => unknown;
  return { endpoint, handler: ({ auth }) => readAs(auth) as ResponseInput<Endpoint>, middleware: [], enabled: true, read: readAs };
}

/** Answers the caller-alone GETs in-process: the JSON text the route would send, or undefined when the caller may not. */
export type CallerReads = (endpoint: Endpoint, auth: RequestAuth) => Promise<string | undefined>;

/** The in-process side of `implementCallerRead`, for the implementations mounted (`validate` checks answers, as in tests). */
export function createCallerReads(implementations: EndpointImplementation[], options: { validate: boolean }): CallerReads {
  const reads = new Map(implementations.filter((i) => i.enabled && i.read).map((i) => [i.endpoint.id, i]));
  return async (endpoint, auth) => {
    const impl = reads.get(endpoint.id);
    if (!impl?.read || accessRefusal(endpoint.access, auth)) return undefined;
    const body = await impl.read(auth);
    if (options.validate) checkJsonAnswer(endpoint, Reply.status(successStatuses(endpoint)[0] ?? 200, body));
    // What Express's res.json sends.
    return JSON.stringify(body);
  };
}

/** Thrown (as a 500) when a handler's answer breaks its contract; only while responses are being checked (tests). */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

/** Why `auth` may not call an endpoint with `access` (the error it answers), or undefined when it may. */
function accessRefusal(access: Access, auth: RequestAuth | null | undefined): Error | undefined {
  if (access === 'public') return undefined;
  if (!auth) return new AuthenticationError();
  if (access === 'moderator' && !hasRole(auth, ROLE_NAMES.admin, ROLE_NAMES.moderator)) return new NotAllowedError();
  if (access === 'admin' && !hasRole(auth, ROLE_NAMES.admin)) return new NotAllowedError();
  if (access === 'realAdmin' && !auth.realRoles.some((r) => r.name === ROLE_NAMES.admin)) return new NotAllowedError();
  // Every role-gated power also wants the second factor of a session whose user really holds Admin
  // (ADMIN_SECOND_FACTOR), an admin viewing as a lesser role included: the session is still an admin's.
  const factor = auth.secondFactor?.state;
  if (access !== 'signedIn' && factor && factor !== 'ok') return new SecondFactorRequiredError(SECOND_FACTOR_MESSAGES[factor]);
  return undefined;
}

function accessCheck(access: Access): RequestHandler {
  return (req, _res, next) => next(accessRefusal(access, req.auth));
}

export interface MountOptions {
  /** The endpoint table: every row must have exactly one implementation and every implementation a row. */
  table: readonly Endpoint[];
  /** Default largest JSON body (BODY_LIMIT); an endpoint's `bodyLimit` overrides it. */
  bodyLimit: string;
  /** Check every answer against the endpoint's response schema and statuses (tests). */
  validateResponses: boolean;
}

/**
 * Mounts the implementations on the app in table order. Per route: the access check first (an API token on an endpoint
 * that does not declare `tokenAccess` is refused, then the role; so a guest's large body is refused with 401/403
 * before it is read), then the endpoint's middleware, then (only for endpoints that take a body) a non-JSON body is
 * refused with 415 and the JSON body parser runs with the endpoint's limit, then params, query and body are parsed
 * with the contract
 * (400 naming the field), then the handler. Throws at start-up when the table and the implementations disagree.
 */
export function mountEndpoints(app: Express, implementations: EndpointImplementation[], options: MountOptions): void {
  const byId = new Map<string, EndpointImplementation>();
  const tableIds = new Set(options.table.map((e) => e.id));
  for (const impl of implementations) {
    if (!tableIds.has(impl.endpoint.id)) throw new Error(`endpoint ${impl.endpoint.id} is implemented but not in the endpoint table`);
    if (byId.has(impl.endpoint.id)) throw new Error(`endpoint ${impl.endpoint.id} is implemented twice`);
    byId.set(impl.endpoint.id, impl);
  }
  const missing = options.table.filter((e) => !byId.has(e.id)).map((e) => `${e.method} ${e.path} (${e.id})`);
  if (missing.length) throw new Error(`endpoints without an implementation: ${missing.join(', ')}`);

  for (const endpoint of options.table) {
    const impl = byId.get(endpoint.id);
    if (!impl?.enabled) continue;
    const chain: RequestHandler[] = [tokenAccessCheck(endpoint), accessCheck(endpoint.access), ...impl.middleware];
    if (endpoint.body) chain.push(requireJsonBody, express.json({ limit: endpoint.bodyLimit ?? options.bodyLimit }));
    chain.push(runHandler(impl, options.validateResponses));
    const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    app[method](endpoint.path, ...chain);
  }
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function runHandler(impl: EndpointImplementation, validate: boolean): RequestHandler {
  const { endpoint, handler } = impl;
  const json = isJsonEndpoint(endpoint);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const args = {
        params: endpoint.params ? parse(endpoint.params, req.params) : undefined,
        query: endpoint.query ? parse(endpoint.query, req.query) : undefined,
        body: endpoint.body ? parse(endpoint.body, req.body) : undefined,
        auth: req.auth ?? null,
        req,
        res,
      } as HandlerArgs<Endpoint>;
      const result = await handler(args);
      if (!json) {
        if (validate) checkRawAnswer(endpoint, res);
        return;
      }
      const reply = result instanceof Reply ? result : Reply.status(successStatuses(endpoint)[0] ?? 200, result);
      if (validate) checkJsonAnswer(endpoint, reply);
      res.status(reply.status);
      if (reply.jsonText !== undefined && !req.fresh) {
        // Bytes ready to send (a cached list answer, or its compressed copy): written as they are, without a body for
        // HEAD. Express's send would only check again what is checked here and look up the content type.
        const body = reply.encoded ? reply.encoded.body : Buffer.isBuffer(reply.jsonText) ? reply.jsonText : Buffer.from(reply.jsonText);
        res.setHeader('Content-Type', JSON_CONTENT_TYPE);
        if (reply.encoded) res.setHeader('Content-Encoding', reply.encoded.encoding);
        res.setHeader('Content-Length', body.length);
        res.end(req.method === 'HEAD' ? undefined : body);
      } else if (reply.jsonText !== undefined) res.type('application/json').send(reply.jsonText);
      else res.json(reply.body);
    } catch (err) {
      next(err);
    }
  };
}

/** Throws ContractViolation when the answer breaks the endpoint's statuses or response schema. */
export function checkJsonAnswer(endpoint: Endpoint, reply: Reply): void {
  const body = reply.jsonText !== undefined ? JSON.parse(reply.jsonText.toString()) : reply.body;
  // A declared status answers the response schema; any other status must be an error with the error body.
  const declared = successStatuses(endpoint).includes(reply.status);
  if (!declared && reply.status < 400) {
    throw new ContractViolation(`${endpoint.id} answered ${reply.status}, not one of its statuses ${successStatuses(endpoint).join(', ')}`);
  }
  const schema = declared ? (endpoint.response as ZodType) : errorBody;
  const checked = schema.safeParse(body);
  if (!checked.success) {
    const issues = checked.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ContractViolation(`${endpoint.id} answered ${reply.status} with a body that breaks its contract: ${issues.join('; ')}`);
  }
}

function checkRawAnswer(endpoint: Endpoint, res: Response): void {
  const mediaType = (endpoint.response as { raw: string }).raw;
  if (!successStatuses(endpoint).includes(res.statusCode) && res.statusCode < 400) {
    throw new ContractViolation(`${endpoint.id} answered ${res.statusCode}, not one of its statuses ${successStatuses(endpoint).join(', ')}`);
  }
  if (mediaType === 'redirect') {
    if (res.statusCode < 300 || res.statusCode >= 400) throw new ContractViolation(`${endpoint.id} should redirect, answered ${res.statusCode}`);
    return;
  }
  // 202, 204 and 304 answers have no body, so no content type.
  if ([202, 204, 304].includes(res.statusCode)) return;
  const type = String(res.getHeader('content-type') ?? '');
  if (res.statusCode < 400 && !type.startsWith(mediaType)) {
    throw new ContractViolation(`${endpoint.id} answered content type '${type}', not ${mediaType}`);
  }
}
