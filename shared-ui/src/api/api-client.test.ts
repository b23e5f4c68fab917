import { describe, expect, it } from '@jest/globals';
import { stubFetch } from '../test/fetch-stub.js';
import { z } from 'zod';
import { ApiError, apiRequest } from './api-client.js';

describe('apiRequest', () => {
  it('sends credentials and a JSON body', async () => {
    const { fetchMock } = stubFetch({ 'POST /api/x': { body: { ok: true } } });
    await expect(apiRequest('POST', '/api/x', { a: 1 })).resolves.toEqual({ ok: true });
    const init = fetchMock.mock.calls[0][1] as RequestInit;
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
  });

  it('throws "status: body" for any non-success, 401 included, keeping the server message', async () => {
    stubFetch({ 'GET /api/y': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Sign in first' } } } });
    const error = (await apiRequest('GET', '/api/y').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('401: {"error":{"name":"UnauthorizedError","message":"Sign in first"}}');
    expect(error.serverMessage).toBe('Sign in first');
  });

  it('uses the status text when the body is empty', async () => {
    stubFetch({ 'GET /api/z': { status: 404 } });
    await expect(apiRequest('GET', '/api/z')).rejects.toThrow('404: Not Found');
  });

  it("gives a field issue's own message, without the field-name prefix", async () => {
    stubFetch({
      'POST /api/f': {
        status: 400,
        body: {
          error: {
            name: 'InputError',
            message: 'email: Please enter a valid email address',
            issues: [{ path: 'email', message: 'Please enter a valid email address' }],
          },
        },
      },
    });
    const error = (await apiRequest('POST', '/api/f', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.serverMessage).toBe('Please enter a valid email address');
    expect(error.message).toContain('email: Please enter a valid email address');
  });

  it('reads an error body with a contract schema', async () => {
    stubFetch({ 'POST /api/s': { status: 502, body: { error: { name: 'SyncFailedError', message: 'feed down' }, extra: 7 } } });
    const error = (await apiRequest('POST', '/api/s').catch((e: unknown) => e)) as ApiError;
    expect(error.bodyAs(z.object({ extra: z.number() }))).toEqual({ extra: 7 });
    expect(error.bodyAs(z.object({ missing: z.string() }))).toBeUndefined();
  });
});
