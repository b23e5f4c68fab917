import type { EndpointDef } from './endpoint.js';
import type { endpoints } from './endpoints/index.js';
import { routeTable } from './routes.generated.js';

/** Carries an endpoint's whole type (its schemas) on a {@link Route}; exists only for the type checker. */
export declare const endpointType: unique symbol;

/**
 * An endpoint as the apps call it: its method and path at run time, its whole table row (params, query, body and
 * response schemas) at compile time only. The apps call through routes so that a screen's first paint does not load
 * every schema of the table and zod with them; the api mounts the table itself.
 */
export type Route<E extends EndpointDef = EndpointDef> = Pick<E, 'method' | 'path'> & { readonly [endpointType]: E };

type Table = typeof endpoints;
export type Routes = { readonly [G in keyof Table]: { readonly [K in keyof Table[G]]: Route<Table[G][K] & EndpointDef> } };

/** The table row behind a route (a full endpoint stays itself). */
export type EndpointOfRoute<R> = R extends { readonly [endpointType]: infer E extends EndpointDef } ? E : R;

// The generated table must have every row with its exact method and path (a compile error otherwise); the test in
// contracts.test.ts also fails when it has rows the endpoint table does not.
type Skeleton = { readonly [G in keyof Table]: { readonly [K in keyof Table[G]]: Pick<Table[G][K] & EndpointDef, 'method' | 'path'> } };
const checked: Skeleton = routeTable;

/** Every endpoint of the table by group and name, without schemas: what the apps call. */
export const routes = checked as unknown as Routes;
