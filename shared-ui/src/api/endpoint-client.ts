import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';
import type { ZodType } from 'zod';
import {
  endpointUrl,
  type endpoints as EndpointTable,
  type BodyInput,
  type Endpoint,
  type EndpointDef,
  type ParamsInput,
  type QueryInput,
  type ResponseOf,
} from '@radar/contracts';
import { apiRequest } from './api-client.js';

type Has<E, K extends string> = E extends { readonly [P in K]: ZodType } ? true : false;
/** Required when the endpoint declares that part, absent otherwise. */
type Part<E, K extends string, T> = Has<E, K> extends true ? { [P in K]: T } : { [P in K]?: undefined };

/**
 * What a call to an endpoint sends, typed from the endpoint table: `params` and `body` are required when the endpoint
 * takes them; `query` is always optional (every query field has a default or is optional).
 */
export type RequestArgs<E extends EndpointDef> = Part<E, 'params', ParamsInput<E>> &
  Part<E, 'body', BodyInput<E>> & { query?: QueryInput<E> };

/** The arguments of a call: required when the endpoint takes params or a body. */
type ArgsOf<E extends EndpointDef> = Has<E, 'params'> extends true ? [args: RequestArgs<E>] : Has<E, 'body'> extends true ? [args: RequestArgs<E>] : [args?: RequestArgs<E>];

/**
 * The endpoint table, loaded on first use. It holds every endpoint's zod schemas (and so zod itself, ~90 KB): a
 * screen's first paint must not wait for it, so code that runs on every page (sign-out everywhere, the impersonation
 * banner, the dashboard visit) reads it here when it acts, and only lazily loaded screens import it directly.
 */
export function endpointTable(): Promise<typeof EndpointTable> {
  return import('@radar/contracts').then((contracts) => contracts.endpoints);
}

/** The URL of a GET: also its SWR cache key, so `mutate(urlOf(...))` revalidates exactly that request. */
export function urlOf<E extends Endpoint>(endpoint: E, args: Omit<RequestArgs<E>, 'body'>): string {
  return endpointUrl(endpoint, args as { params?: Record<string, unknown>; query?: Record<string, unknown> });
}

/**
 * Calls an endpoint of the table with credentials and a JSON body; resolves to its typed answer and throws ApiError
 * for any non-2xx status (spec 01 §7's "status: body" message).
 */
export function callEndpoint<E extends Endpoint>(endpoint: E, ...[args]: ArgsOf<E>): Promise<ResponseOf<E>> {
  const a = (args ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return apiRequest<ResponseOf<E>>(endpoint.method, endpointUrl(endpoint, a), a.body);
}

/**
 * SWR over a GET endpoint of the table, keyed by its URL. Pass `null` args to skip the request (e.g. no item open).
 * The global SWR defaults (spec 01 §9) apply unless `config` overrides them.
 */
export function useEndpoint<E extends Endpoint & { method: 'GET' }>(
  endpoint: E,
  args: Omit<RequestArgs<E>, 'body'> | null,
  config?: SWRConfiguration<ResponseOf<E>>,
): SWRResponse<ResponseOf<E>> {
  return useSWR<ResponseOf<E>>(args ? urlOf(endpoint, args) : null, config);
}
