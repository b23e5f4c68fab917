import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { codeHashOf } from '../../src/features/auth/auth.service.js';
import { createTestDb, type TestDatabase } from '../db.js';
import { createUser } from '../factories.js';

/**
 * `npm run admin:recover -- EMAIL`, run as an operator runs it (the CLI from source, against the product's database and
 * secret): it prints a one-time code and the link that opens the code step, stores only the code's keyed hash marked as
 * a recovery code, and refuses anyone who is not an admin.
 */
const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(apiDir, '../node_modules/.bin/tsx');
const run = promisify(execFile);
const SECRET = 'recovery-test-secret-that-is-long-enough-0123456789';

let database: TestDatabase | undefined;
afterAll(async () => database?.close());

describe('admin recovery CLI', () => {
  it('prints a one-time code for an admin, kept only as a hash, and refuses others', async () => {
    database = await createTestDb();
    await createUser(database.db, { email: 'last-admin@example.com', roles: ['Admin'] });
    await createUser(database.db, { email: 'reader@example.com' });
    const env = { ...process.env, DATABASE_URL: database.url, SESSION_SECRET: SECRET, PUBLIC_URL: 'https://radar.example.com', LOG_LEVEL: 'silent' };
    const { stdout } = await run(tsx, ['--conditions=source', 'src/cli/recover-admin.ts', 'Last-Admin@example.com'], { cwd: apiDir, env });
    // 26 base32 characters: 128 random bits.
    const code = /Recovery code for last-admin@example\.com: ([A-Z2-7]{26})\n/.exec(stdout)?.[1];
    expect(code).toBeDefined();
    expect(stdout).toContain('Open https://radar.example.com/?recovery=last-admin%40example.com and enter it within 15 minutes');
    const { rows } = await database.pool.query<{ code_hash: string; purpose: string }>(
      `SELECT code_hash, purpose FROM sign_in_codes WHERE email = 'last-admin@example.com'`,
    );
    expect(rows).toEqual([{ code_hash: codeHashOf(SECRET, 'last-admin@example.com', code ?? ''), purpose: 'recovery' }]);

    const refused = await run(tsx, ['--conditions=source', 'src/cli/recover-admin.ts', 'reader@example.com'], { cwd: apiDir, env }).catch(
      (err: { code: number; stderr: string }) => err,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('reader@example.com is not an admin of this installation') });
  });
});
