import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { makeUser, stubFetch } from '../test/fetch-stub.js';
import { apiRequest } from './api-client.js';
import { PREFETCH_KEEP_MS, prefetchGet, prefetchSession, takePrefetched } from './prefetch.js';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('early GETs', () => {
  afterEach(() => {
    jest.useRealTimers();
    delete (window as unknown as Record<string, unknown>).__RADAR_PREFETCH__;
  });

  it('answer the first apiRequest for the same URL without a second request; later ones ask again', async () => {
    const { calls } = stubFetch({ 'GET /api/unified/items': { body: { items: [1] } } });
    void prefetchGet('/api/unified/items?page=1');
    expect(calls).toHaveLength(1);
    await expect(apiRequest('GET', '/api/unified/items?page=1')).resolves.toEqual({ items: [1] });
    expect(calls).toHaveLength(1);
    await apiRequest('GET', '/api/unified/items?page=1');
    expect(calls).toHaveLength(2);
  });

  it('are never used for another method, and are sent again when the early request failed', async () => {
    const { calls, fetchMock } = stubFetch({ 'POST /api/x': { body: { ok: true } }, 'GET /api/y': { body: { fine: true } } });
    void prefetchGet('/api/x');
    await apiRequest('POST', '/api/x', { a: 1 });
    expect(calls.map((c) => c.method)).toEqual(['GET', 'POST']);

    fetchMock.mockImplementationOnce(async () => {
      throw new TypeError('Failed to fetch');
    });
    void prefetchGet('/api/y').catch(() => undefined);
    await expect(apiRequest('GET', '/api/y')).resolves.toEqual({ fine: true });
  });

  it('are dropped when nobody takes them in time, so a late reader gets fresh data', async () => {
    jest.useFakeTimers();
    stubFetch({ 'GET /api/dashboard/stats': { body: {} } });
    void prefetchGet('/api/dashboard/stats');
    jest.advanceTimersByTime(PREFETCH_KEEP_MS);
    expect(takePrefetched('/api/dashboard/stats')).toBeUndefined();
  });

  it('look the session up as useSession does: /api/auth/user only when the first lookup finds no user', async () => {
    const guest = stubFetch({ 'GET /api/auth/session-user': { body: { user: null } }, 'GET /api/auth/user': { status: 401 } });
    prefetchSession();
    await flush();
    await flush();
    expect(guest.calls.map((c) => c.url)).toEqual(['/api/auth/session-user', '/api/auth/user']);

    delete (window as unknown as Record<string, unknown>).__RADAR_PREFETCH__;
    const member = stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser() } } });
    prefetchSession();
    await flush();
    await flush();
    expect(member.calls.map((c) => c.url)).toEqual(['/api/auth/session-user']);
  });
});
