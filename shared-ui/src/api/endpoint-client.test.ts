import { describe, expect, it } from '@jest/globals';
import { endpoints } from '@radar/contracts';
import { stubFetch } from '../test/fetch-stub.js';
import { callEndpoint, urlOf } from './endpoint-client.js';

describe('endpoint client', () => {
  it('fills path params, repeats list keys in the query and leaves out empty values', () => {
    expect(urlOf(endpoints.items.roadmapHistory, { params: { itemId: '12 3' } })).toBe('/api/roadmap/items/12%203/history');
    expect(urlOf(endpoints.items.list, { query: { search: 'teams', sources: ['roadmap', 'messages'], products: [], featured: undefined, page: 2 } })).toBe(
      '/api/unified/items?search=teams&sources=roadmap&sources=messages&page=2',
    );
  });

  it('sends the method and JSON body of the table row and resolves to the answer', async () => {
    const { calls } = stubFetch({ 'PUT /api/admin/roles/4': { body: { id: 4, name: 'Editor', description: null, permissions: [] } } });
    const role = await callEndpoint(endpoints.admin.updateRole, { params: { id: 4 }, body: { name: 'Editor' } });
    expect(role.name).toBe('Editor');
    expect(calls).toEqual([{ url: '/api/admin/roles/4', method: 'PUT', body: { name: 'Editor' } }]);
  });

  it('throws the api error for a non-2xx answer', async () => {
    stubFetch({ 'GET /api/admin/roles': { status: 403, body: { error: { name: 'NotAllowedError', message: 'No' } } } });
    await expect(callEndpoint(endpoints.admin.roles)).rejects.toThrow('403: {"error":{"name":"NotAllowedError","message":"No"}}');
  });
});
