import { endpointUrl, endpoints } from '@radar/contracts';
import { Mailbox } from './mailbox.js';

/**
 * Signs in through the real passwordless api (sign-up, the mailed code, verify) and returns the session cookie:
 * the global setup acts as the e2e admin (ADMIN_EMAILS) to trigger syncs the way the admin sync buttons do.
 */
export async function signInByApi(baseUrl: string, mailDir: string, user: { email: string; firstName: string; lastName: string }): Promise<string> {
  const mailbox = new Mailbox(mailDir);
  const before = mailbox.messagesTo(user.email).length;
  const json = { 'Content-Type': 'application/json' };
  const signup = await fetch(`${baseUrl}${endpointUrl(endpoints.auth.signup)}`, { method: 'POST', headers: json, body: JSON.stringify(user) });
  if (!signup.ok) throw new Error(`sign-up of ${user.email} failed: ${signup.status} ${await signup.text()}`);
  const code = await waitForCode(mailbox, user.email, before);
  const verify = await fetch(`${baseUrl}${endpointUrl(endpoints.auth.verifyCode)}`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: user.email, code }),
  });
  if (!verify.ok) throw new Error(`sign-in of ${user.email} failed: ${verify.status} ${await verify.text()}`);
  const cookie = verify.headers.getSetCookie().find((c) => c.startsWith('radar_session='));
  if (!cookie) throw new Error('no session cookie after verify-code');
  return cookie.split(';')[0]!;
}

async function waitForCode(mailbox: Mailbox, email: string, before: number, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const last = mailbox.messagesTo(email).slice(before).at(-1);
    const code = /\b(\d{6})\b/.exec(`${last?.subject ?? ''}\n${last?.text ?? ''}`)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no sign-in code mailed to ${email} within ${timeoutMs} ms`);
}

/** Runs an admin sync (POST /api/roadmap/sync or /api/admin/sync-message-center) and checks it succeeded. */
export async function adminSync(baseUrl: string, cookie: string, source: 'roadmap' | 'messages'): Promise<unknown> {
  const path = endpointUrl(source === 'roadmap' ? endpoints.sync.syncRoadmap : endpoints.sync.syncMessageCenter);
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { Cookie: cookie, Origin: new URL(baseUrl).origin } });
  const body = await response.text();
  if (!response.ok) throw new AdminApiError(`${path} answered ${response.status}: ${body}`, response.status);
  return JSON.parse(body) as unknown;
}

/** A refused admin call, with its status. */
export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
