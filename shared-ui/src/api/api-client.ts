import { takePrefetched } from './prefetch.js';

/** Options of {@link apiFetch}: a fetch init plus `json`, a body sent as JSON. */
export interface ApiInit extends Omit<RequestInit, 'body'> {
  /** Serialised with JSON.stringify and sent with `Content-Type: application/json`. */
  json?: unknown;
  body?: BodyInit | null;
}

/**
 * A non-successful answer. `message` is exactly `${status}: ${bodyText || statusText}` (spec 01 §7);
 * `serverMessage` is the api's `{ error: { message } }` (or `{ message }`) when the body has one.
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
}

function readServerMessage(bodyText: string): string | undefined {
  try {
    const body = JSON.parse(bodyText) as { error?: { message?: unknown }; message?: unknown };
    const message = body?.error?.message ?? body?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** A plain GET, as the early requests of ./prefetch.ts are sent. */
function isPlainGet({ method = 'GET', json, body, ...others }: ApiInit): boolean {
  return method.toUpperCase() === 'GET' && json === undefined && body == null && Object.values(others).every((value) => value === undefined);
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
