import { jest } from '@jest/globals';

/** A route answer: status and JSON body (or a function of the request). */
export type StubAnswer = { status?: number; body?: unknown } | ((init: RequestInit | undefined, url: string) => { status?: number; body?: unknown });

export interface FetchCall {
  url: string;
  method: string;
  body: unknown;
}

/**
 * A tiny window-level fetch stub for jsdom component tests only (the server code is never mocked).
 * Keys are 'METHOD /path'; unknown routes answer 404 with the api's error body.
 */
export function stubFetch(routes: Record<string, StubAnswer>) {
  const calls: FetchCall[] = [];
  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    calls.push({ url, method, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const route = routes[`${method} ${path}`] ?? routes[`${method} ${url}`];
    const answer =
      typeof route === 'function' ? route(init, url) : (route ?? { status: 404, body: { error: { name: 'NotFoundError', message: 'Not found' } } });
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    const response = (): Response =>
      ({
        ok: status >= 200 && status < 300,
        status,
        statusText: status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'OK',
        text: async () => text,
        json: async () => JSON.parse(text),
        clone: response,
      }) as Response;
    return response();
  });
  Object.defineProperty(window, 'fetch', { writable: true, configurable: true, value: fetchMock });
  return { calls, fetchMock };
}

/** A user as the api returns it. */
export function makeUser(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    profileImageUrl: null,
    lastLoginAt: '2026-02-01T10:00:00.000Z',
    roles: [],
    ...overrides,
  };
}
