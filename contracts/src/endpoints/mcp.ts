import { errorBody } from '../common.js';
import { raw, defineEndpoints } from '../endpoint.js';
import { mcpRequestBody } from '../mcp.js';

/** The MCP server over Streamable HTTP (stateless, JSON answers), for agents holding an API token. */
export const mcpEndpoints = defineEndpoints('mcp', {
  message: {
    method: 'POST',
    path: '/api/mcp',
    summary: 'MCP (Model Context Protocol) JSON-RPC messages: read-only tools over the items',
    access: 'signedIn',
    tokenAccess: true,
    body: mcpRequestBody,
    status: [200, 202],
    response: raw('application/json'),
  },
  stream: {
    method: 'GET',
    path: '/api/mcp',
    summary: 'MCP server-to-client stream: not offered by this stateless server (405)',
    access: 'signedIn',
    tokenAccess: true,
    status: [405],
    response: errorBody,
  },
});
