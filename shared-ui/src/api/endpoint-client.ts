import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';
import type { ZodType } from 'zod';
import { endpointUrl, type BodyInput, type EndpointDef, type EndpointOfRoute, type ParamsInput, type QueryInput, type ResponseOf } from '@radar/contracts';
import { apiRequest } from './api-client.js';

type Has<E, K extends string> = E extends { readonly [P in K]: ZodType } ? true : false;
/** Required when the endpoint declares that part, absent otherwise. */
type Part<E, K extends string, T> = Has<E, K> extends true ? { [P in K]: T } : { [P in K]?: undefined };

/**
 * What a call to an endpoint sends, typed from the endpoint table: `params` and `body` are required when the endpoint
 * takes them; `query` is always optional (every query field has a default or is optional).
 */
export type RequestArgs<E extends EndpointDef> = Part<E, 'params', ParamsInput<E>> & Part<E, 'body', BodyInput<E>> & { query?: QueryInput<E> };

/** The arguments of a call: required when the endpoint takes params or a body. */
type ArgsOf<E extends EndpointDef> =
  Has<E, 'params'> extends true ? [args: RequestArgs<E>] : Has<E, 'body'> extends true ? [args: RequestArgs<E>] : [args?: RequestArgs<E>];

/**
 * What the apps pass: a route of `routes` (method and path at run time, the table row's types at compile time, so no
 * schema or zod reaches a first paint), or a row of `endpoints` itself.
 */
type Callable = Pick<EndpointDef, 'method' | 'path'>;
/** The table row of a route (a row stays itself). */
type Def<R> = EndpointOfRoute<R> extends infer E extends EndpointDef ? E : never;

/** The URL of a GET: also its SWR cache key, so `mutate(urlOf(...))` revalidates exactly that request. */
export function urlOf<R extends Callable>(endpoint: R, args: Omit<RequestArgs<Def<R>>, 'body'>): string {
  return endpointUrl(endpoint, args as { params?: Record<string, unknown>; query?: Record<string, unknown> });
}

/**
 * Calls an endpoint of the table with credentials and a JSON body; resolves to its typed answer and throws ApiError
 * for any non-2xx status.
 */
export function callEndpoint<R extends Callable>(endpoint: R, ...[args]: ArgsOf<Def<R>>): Promise<ResponseOf<Def<R>>> {
  const a = (args ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return apiRequest<ResponseOf<Def<R>>>(endpoint.method, endpointUrl(endpoint, a), a.body);
}

/**
 * SWR over a GET endpoint of the table, keyed by its URL. Pass `null` args to skip the request (e.g. no item open).
 * The global SWR defaults apply unless `config` overrides them.
 */
export function useEndpoint<R extends Callable & { method: 'GET' }>(
  endpoint: R,
  args: Omit<RequestArgs<Def<R>>, 'body'> | null,
  config?: SWRConfiguration<ResponseOf<Def<R>>>,
): SWRResponse<ResponseOf<Def<R>>> {
  return useSWR<ResponseOf<Def<R>>>(args ? urlOf(endpoint, args) : null, config);
}
