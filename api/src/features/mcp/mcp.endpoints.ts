import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IncomingMessage } from 'node:http';
import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { MethodNotAllowedError } from '../../http/errors.js';
import { createRadarMcpServer } from './server.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';

/**
 * /api/mcp: the MCP server over Streamable HTTP, stateless (a server and transport per request, JSON answers), so
 * any replica answers any request. Signed-in callers only; agents use a personal API token (Authorization: Bearer).
 */
export function createMcpEndpoints(ctx: AppContext): EndpointImplementation[] {
  const deps = { db: ctx.db, pool: ctx.pool, clock: ctx.clock, log: ctx.log, publicUrl: ctx.publicUrl };
  return [
    implement(endpoints.mcp.message, async ({ body, req, res, auth }) => {
      // Each tool call runs real queries: every one in the message (or batch) counts against the caller's budget.
      const calls = (Array.isArray(body) ? body : [body]).filter((m) => (m as { method?: unknown }).method === 'tools/call').length;
      if (calls > 0) await ctx.services.missBudget.charge(req, calls);
      // The tools answer what the caller may see: the tenants of the token's or session's user.
      const server = createRadarMcpServer({ ...deps, tenantScope: await tenantScopeOf(ctx.db, auth) });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // Our req.auth (the session) is not the SDK's OAuth AuthInfo; the caller's tenant scope was passed above.
      await transport.handleRequest(req as unknown as IncomingMessage, res, body);
    }),
    implement(endpoints.mcp.stream, ({ res }) => {
      res.setHeader('Allow', 'POST');
      throw new MethodNotAllowedError('This MCP server is stateless and offers no server-to-client stream: POST JSON-RPC messages to /api/mcp');
    }),
  ];
}
