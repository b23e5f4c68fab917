/**
 * `npm run admin:recover -- EMAIL`
 * Prints a one-time recovery code (128 random bits) for an admin who lost their passkeys and has no colleague to reset
 * them (Admin → Users → Reset passkeys): entered in the sign-in dialog like a mailed code within 15 minutes, it
 * satisfies the second factor once, for ADMIN_REAUTH_MINUTES and one guarded action, so the admin adds a new passkey. Run it on the server, with the product's DATABASE_URL and SESSION_SECRET
 * (or its DATA_DIR for the embedded database, with the product stopped). Nothing is mailed; the code is only printed.
 */
import path from 'node:path';
import { loadConfig } from '../config.js';
import { applyMigrations, connectDatabase } from '../db/client.js';
import { startEmbeddedPostgres, type EmbeddedServer } from '../db/embedded.js';
import { RECOVERY_PARAM } from '@radar/contracts';
import { resolveSecret } from '../lib/secret.js';
import { createLogger } from '../logger.js';
import { issueRecoveryCode, RECOVERY_CODE_MINUTES } from '../features/auth/auth.service.js';

async function main(): Promise<number> {
  const email = process.argv[2];
  if (!email || email === '--help') {
    process.stdout.write('usage: npm run admin:recover -- admin@example.com\n');
    return email ? 0 : 2;
  }
  const config = loadConfig();
  const log = createLogger('warn');
  let embedded: EmbeddedServer | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    const dataDir = path.resolve(config.DATA_DIR);
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'postgres'),
      persistent: true,
      database: 'radar',
      passwordFile: path.join(dataDir, 'postgres-password'),
    });
    url = embedded.url('radar');
  }
  const database = connectDatabase(url, log, { max: 2 });
  try {
    await applyMigrations(url);
    const secret = resolveSecret(config.SESSION_SECRET, path.resolve(config.DATA_DIR));
    const { code, expiresAt } = await issueRecoveryCode(database.db, secret, email, new Date());
    const address = email.trim().toLowerCase();
    const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
    process.stdout.write(
      `Recovery code for ${address}: ${code}\n` +
        `Open ${publicUrl}/?${RECOVERY_PARAM}=${encodeURIComponent(address)} and enter it within ${RECOVERY_CODE_MINUTES} minutes (until ${expiresAt.toISOString()}).\n` +
        'Do not ask for a mailed code meanwhile (it would replace this one). The session it opens may add one passkey:\n' +
        `add it on your profile within ${config.ADMIN_REAUTH_MINUTES} minutes, then confirm with it for anything else.\n`,
    );
    log.warn({ email }, 'admin recovery code printed');
    return 0;
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`admin:recover failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
