import type { ZodType } from 'zod';
import type { ErrorBody } from '@radar/contracts';
import { takePrefetched } from './prefetch.js';

/** Options of {@link apiFetch}: a fetch init plus `json`, a body sent as JSON. */
export interface ApiInit extends Omit<RequestInit, 'body'> {
  /** Serialised with JSON.stringify and sent with `Content-Type: application/json`. */
  json?: unknown;
  body?: BodyInit | null;
}

/**
 * A non-successful answer. `message` is exactly `${status}: ${bodyText || statusText}`;
 * `serverMessage` is what the api said, for people: the first field issue's own message when the answer names
 * fields (`{ error: { message: 'email: Please enter…', issues: [{ path: 'email', message: 'Please enter…' }] } }`
 * gives 'Please enter…', without the field-name prefix), else `error.message` (or a bare `{ message }`).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;
  readonly serverMessage: string | undefined;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyText = bodyText;
    this.serverMessage = readServerMessage(bodyText);
  }

  /** The body read with a contract schema (e.g. the run a failed sync trigger recorded); undefined if it does not fit. */
  bodyAs<T>(schema: ZodType<T>): T | undefined {
    return schema.safeParse(parseJson(this.bodyText)).data;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A plain GET, as the early requests of ./prefetch.ts are sent. */
function isPlainGet({ method = 'GET', json, body, ...others }: ApiInit): boolean {
  return method.toUpperCase() === 'GET' && json === undefined && body == null && Object.values(others).every((value) => value === undefined);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The api's message in an error body (contracts' `errorBody`), or a bare `{ message }`. Read without zod: this
 * module is on every first paint, and the schemas (with zod) are not.
 */
function readServerMessage(bodyText: string): string | undefined {
  const body = parseJson(bodyText);
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error)) {
    const error = body.error as Partial<ErrorBody['error']> & Record<string, unknown>;
    const first: unknown = Array.isArray(error.issues) ? error.issues[0] : undefined;
    return stringOr(isRecord(first) ? first.message : undefined) ?? stringOr(error.message);
  }
  return stringOr(body.message);
}

/**
 * fetch with cookies and JSON bodies; throws {@link ApiError} for any non-2xx answer, 401 included. A plain GET the
 * shell already started (./prefetch.ts) takes that response; if that request failed, it is sent again.
 */
export async function apiFetch(url: string, init: ApiInit = {}): Promise<Response> {
  const { json, headers, body, ...rest } = init;
  const hasJson = json !== undefined;
  const send = () =>
    fetch(url, {
      credentials: 'include',
      ...rest,
      headers: { Accept: 'application/json', ...(hasJson ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: hasJson ? JSON.stringify(json) : body,
    });
  const early = isPlainGet(init) ? takePrefetched(url) : undefined;
  const response = early ? await early.catch(send) : await send();
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new ApiError(response.status, response.statusText, text);
  }
  return response;
}

/** Sends a request and parses the JSON answer (undefined for an empty body). */
export async function apiRequest<T>(method: string, url: string, json?: unknown): Promise<T> {
  const response = await apiFetch(url, { method, json });
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The SWR fetcher: GET the key. */
export const swrFetcher = <T>(url: string): Promise<T> => apiRequest<T>('GET', url);

/** The server's own message from an error, if it sent one. */
export function serverMessageOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}
