import { and, desc, eq } from 'drizzle-orm';
import request from 'supertest';
import { mailOutbox } from '../src/db/schema/index.js';
import { deriveOutboxKey, openContent, type MailContent } from '../src/mail/sealed-content.js';
import type { TestContext } from './context.js';

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * What a queued mail says. Sensitive mail (codes, confirmation links) is stored encrypted: the test opens it with the
 * installation's key, as the delivery job does just before sending.
 */
export function mailContentOf(t: TestContext, row: Pick<OutboxRow, 'subject' | 'html' | 'text' | 'sealedContent'>): MailContent {
  if (row.sealedContent) return openContent(deriveOutboxKey(t.ctx.secret), row.sealedContent);
  return { subject: row.subject, html: row.html, text: row.text };
}

/** The newest queued mail of a kind to `email`, decrypted. */
export async function latestMailTo(t: TestContext, email: string, kind: string): Promise<(MailContent & { row: OutboxRow }) | undefined> {
  const [row] = await t.ctx.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, kind)))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  return row ? { ...mailContentOf(t, row), row } : undefined;
}

/** The code in the newest sign-in mail to `email`, read from the outbox (no SMTP needed). */
export async function latestCodeFromOutbox(t: TestContext, email: string): Promise<string> {
  const mail = await latestMailTo(t, email, 'sign-in-code');
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no sign-in code mailed to ${email}`);
  return code;
}

/** The session cookie pair (`radar_session=…`, or `__Host-radar_session=…` over https) a response sets. */
export function sessionCookieOf(res: request.Response): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = cookies.find((c) => /^(__Host-)?radar_session=[^;]/.test(c));
  if (!session) throw new Error('no session cookie set');
  return session.split(';')[0]!;
}

/** Signs up (or in) through the real endpoints and returns the session cookie pair. */
export async function signIn(t: TestContext, email: string, names = { firstName: 'Test', lastName: 'User' }): Promise<string> {
  const sent = await request(t.app)
    .post('/api/auth/signup')
    .send({ ...names, email });
  if (sent.status !== 200) throw new Error(`signup failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  const code = await latestCodeFromOutbox(t, email.trim().toLowerCase());
  const res = await request(t.app).post('/api/auth/verify-code').send({ email, code });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${JSON.stringify(res.body)}`);
  return sessionCookieOf(res);
}

/**
 * Signs up, gives the user extra roles ('Admin', 'Moderator') straight in the database, and signs in again: a role
 * change ends the user's sessions, so the returned session is one issued with the roles.
 */
export async function signInWithRoles(t: TestContext, email: string, roleNames: string[]): Promise<string> {
  await signIn(t, email);
  for (const name of roleNames) {
    await t.database.pool.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT u.id, r.id FROM users u, roles r WHERE u.email = $1 AND r.name = $2 ON CONFLICT DO NOTHING`,
      [email.trim().toLowerCase(), name],
    );
  }
  return signIn(t, email);
}
