import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { connectDatabase } from '../db/client.js';
import { runningEmbeddedUrl } from '../db/embedded.js';
import { systemClock } from '../lib/clock.js';
import { createLogger } from '../logger.js';
import { createRadarMcpServer } from '../features/mcp/server.js';

/**
 * `npm run mcp`: the MCP server over stdio, for desktop agents (Claude Desktop, VS Code, …), reading the same
 * database as the web app: DATABASE_URL, or else the embedded PostgreSQL that `npm start` runs on DATA_DIR.
 * Standard output is the protocol, so the log goes to standard error.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL, { stderr: true });
  const databaseUrl = config.DATABASE_URL ?? runningEmbeddedUrl(path.join(config.DATA_DIR, 'postgres'), 'radar');
  if (!databaseUrl) {
    process.stderr.write(
      `M365 Radar MCP: no database. Start M365 Radar first (npm start), which runs its PostgreSQL under ${path.resolve(config.DATA_DIR)}, or set DATABASE_URL.\n`,
    );
    process.exit(1);
  }
  const database = connectDatabase(databaseUrl, log, { max: 4, statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS });
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  const server = createRadarMcpServer({ db: database.db, pool: database.pool, clock: systemClock, log, publicUrl });
  const transport = new StdioServerTransport();
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  // The client ends the session by closing our standard input (or with a signal).
  process.stdin.on('end', () => void close());
  process.on('SIGTERM', () => void close());
  process.on('SIGINT', () => void close());
  await server.connect(transport);
  log.info({ publicUrl }, 'M365 Radar MCP server ready on stdio');
}

main().catch((err) => {
  process.stderr.write(`M365 Radar MCP failed to start: ${err instanceof ConfigError ? err.message : (err?.stack ?? err)}\n`);
  process.exit(1);
});
