import { z } from './zod.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an endpoint. The api checks it before anything else runs (before the body is even parsed):
 * `signedIn` answers 401 to guests; `moderator` and `admin` answer 401 to guests and 403 without the role (the
 * effective roles, so impersonation applies); `realAdmin` checks the roles the user really holds (the impersonation
 * tool must let an admin who impersonates a User switch back).
 */
export type Access = 'public' | 'signedIn' | 'moderator' | 'admin' | 'realAdmin';

/** A success answer that is not JSON: the handler writes it (a CSV download, an HTML page, a redirect, a feed). */
export interface RawAnswer {
  readonly raw: 'text/csv' | 'text/html' | 'redirect' | (string & {});
}

/** Declares a non-JSON success answer of the given media type (or `redirect`). */
export const raw = <const M extends RawAnswer['raw']>(mediaType: M): { readonly raw: M } => ({ raw: mediaType });

/** One row of the endpoint table: everything the api mounts, the apps call and the reference documents. */
export interface EndpointDef {
  readonly method: HttpMethod;
  /** Express-style path with `:name` parameters, e.g. `/api/roadmap/items/:itemId/history`. */
  readonly path: `/${string}`;
  /** One line for the API reference. */
  readonly summary: string;
  readonly access: Access;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** Largest JSON body accepted (express/bytes syntax, e.g. '10mb'); the default is the BODY_LIMIT setting. */
  readonly bodyLimit?: string;
  /** The success statuses the endpoint answers with (default [200]). */
  readonly status?: readonly number[];
  /** The success answer: its JSON schema, or a {@link raw} media type the handler writes itself. */
  readonly response: z.ZodType | RawAnswer;
  /**
   * A personal API token (`Authorization: Bearer rdr_…`) is accepted here. Only read endpoints and the caller's own
   * subscriptions declare it; everywhere else a token is refused (403), and a token never carries the Moderator or
   * Admin role (a token of an admin acts as a plain signed-in user). `'manage'`: the endpoint changes the caller's
   * own subscriptions, so a token needs the `read_subscriptions` scope (a `read` token is refused with 403).
   */
  readonly tokenAccess?: boolean | 'manage';
}

/** An endpoint of the table with its id (`group.name`) and group (the reference's tag). */
export type Endpoint<D extends EndpointDef = EndpointDef> = D & { readonly id: string; readonly group: string };

/**
 * Defines a group of endpoints; each gets the id `group.key`. The `const` type parameter keeps every literal (method,
 * path, access) and every schema's exact type, so the api's handlers and the apps' calls are typed from here.
 */
export function defineEndpoints<const G extends Record<string, EndpointDef>>(group: string, defs: G): { readonly [K in keyof G]: Endpoint<G[K]> } {
  const out: Record<string, Endpoint> = {};
  for (const [key, def] of Object.entries(defs)) out[key] = { ...def, id: `${group}.${key}`, group };
  return out as { readonly [K in keyof G]: Endpoint<G[K]> };
}

// A part the endpoint does not declare is `undefined` (indexing the optional key of a literal that lacks it does not
// give `undefined`, so the presence of the key is tested instead).
type PartOut<E, K extends string> = E extends { readonly [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;
type PartIn<E, K extends string> = E extends { readonly [P in K]: infer S extends z.ZodType } ? z.input<S> : undefined;

/** What the api hands a handler: params, query and body after their schemas parsed them. */
export type ParamsOf<E extends EndpointDef> = PartOut<E, 'params'>;
export type QueryOf<E extends EndpointDef> = PartOut<E, 'query'>;
export type BodyOf<E extends EndpointDef> = PartOut<E, 'body'>;

/** What a caller sends (before defaults and coercion). */
export type ParamsInput<E extends EndpointDef> = PartIn<E, 'params'>;
export type QueryInput<E extends EndpointDef> = PartIn<E, 'query'>;
export type BodyInput<E extends EndpointDef> = PartIn<E, 'body'>;

/** The parsed success answer (what a caller receives); `string` for raw answers. */
export type ResponseOf<E extends EndpointDef> = E['response'] extends z.ZodType ? z.output<E['response']> : string;
/** What a handler may return for a JSON endpoint (the schema's input side). */
export type ResponseInput<E extends EndpointDef> = E['response'] extends z.ZodType ? z.input<E['response']> : never;

/** True when the endpoint answers JSON (its response is a schema). */
export function isJsonEndpoint(endpoint: EndpointDef): boolean {
  return !('raw' in endpoint.response);
}

/** The success statuses of an endpoint. */
export function successStatuses(endpoint: EndpointDef): readonly number[] {
  return endpoint.status ?? [200];
}

/** Names of the `:params` in a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? '');
}

type QueryValue = string | number | boolean | Date | null | undefined | readonly (string | number | boolean)[];

/**
 * The query string of a request (without `?`): a list repeats its key (`?products=a&products=b`, which the api's
 * `stringList` reads without splitting values on commas); empty strings, null and undefined are left out; dates are
 * ISO strings. Keys keep their order, so the same request always gives the same URL (it is the SWR cache key).
 */
export function toQueryString(query: Record<string, unknown> | undefined | null): string {
  if (!query) return '';
  const parts = new URLSearchParams();
  for (const [key, value] of Object.entries(query) as [string, QueryValue][]) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      for (const v of value) parts.append(key, String(v));
    } else if (value instanceof Date) {
      parts.append(key, value.toISOString());
    } else {
      parts.append(key, String(value));
    }
  }
  return parts.toString();
}

/** The URL of a request: the path with its params filled in (URI-encoded) and the query string. */
export function endpointUrl(
  endpoint: Pick<EndpointDef, 'path'>,
  args: { params?: Record<string, unknown> | undefined; query?: Record<string, unknown> | undefined } = {},
): string {
  const path = endpoint.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const value = args.params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${endpoint.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const qs = toQueryString(args.query);
  return qs ? `${path}?${qs}` : path;
}
