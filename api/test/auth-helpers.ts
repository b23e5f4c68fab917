import { and, desc, eq } from 'drizzle-orm';
import request from 'supertest';
import { mailOutbox } from '../src/db/schema.js';
import type { TestContext } from './context.js';

/** The code in the newest sign-in mail to `email`, read from the outbox (no SMTP needed). */
export async function latestCodeFromOutbox(t: TestContext, email: string): Promise<string> {
  const [row] = await t.ctx.db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'sign-in-code')))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const code = row?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no sign-in code mailed to ${email}`);
  return code;
}

/** The `radar_session=…` pair from a response, for the Cookie header of later requests. */
export function sessionCookieOf(res: request.Response): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = cookies.find((c) => c.startsWith('radar_session='));
  if (!session) throw new Error('no session cookie set');
  return session.split(';')[0]!;
}

/** Signs up (or in) through the real endpoints and returns the session cookie pair. */
export async function signIn(t: TestContext, email: string, names = { firstName: 'Test', lastName: 'User' }): Promise<string> {
  const sent = await request(t.app).post('/api/auth/signup').send({ ...names, email });
  if (sent.status !== 200) throw new Error(`signup failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  const code = await latestCodeFromOutbox(t, email.trim().toLowerCase());
  const res = await request(t.app).post('/api/auth/verify-code').send({ email, code });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${JSON.stringify(res.body)}`);
  return sessionCookieOf(res);
}

/** Signs in and gives the user extra roles ('Admin', 'Moderator') straight in the database. */
export async function signInWithRoles(t: TestContext, email: string, roleNames: string[]): Promise<string> {
  const cookie = await signIn(t, email);
  for (const name of roleNames) {
    await t.database.pool.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT u.id, r.id FROM users u, roles r WHERE u.email = $1 AND r.name = $2 ON CONFLICT DO NOTHING`,
      [email.trim().toLowerCase(), name],
    );
  }
  return cookie;
}
