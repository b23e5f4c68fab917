import { idParams, resultMessage } from '../common.js';
import { defineEndpoints } from '../endpoint.js';
import { apiTokensResponse, createApiToken, createdApiToken } from '../tokens.js';

/** Personal API tokens of the signed-in user (cookie session only: a token cannot mint or list tokens). */
export const tokenEndpoints = defineEndpoints('tokens', {
  list: {
    method: 'GET',
    path: '/api/tokens',
    summary: "The caller's API tokens (never the secrets), newest first",
    access: 'signedIn',
    response: apiTokensResponse,
  },
  create: {
    method: 'POST',
    path: '/api/tokens',
    summary: 'Create an API token; the answer is the only time the token is shown',
    access: 'signedIn',
    body: createApiToken,
    status: [201],
    response: createdApiToken,
  },
  revoke: {
    method: 'DELETE',
    path: '/api/tokens/:id',
    summary: 'Revoke one of the caller’s API tokens',
    access: 'signedIn',
    params: idParams,
    response: resultMessage,
  },
});
