import request from 'supertest';
import { latestMailTo } from './auth-helpers.js';
import type { TestContext } from './context.js';

/** The confirmation link (path and query) of the newest digest confirmation mail to `email`. */
export async function digestConfirmPath(t: TestContext, email: string): Promise<string> {
  const mail = await latestMailTo(t, email, 'digest-confirm');
  const url = mail?.text.match(/https?:\/\/\S+\/api\/weekly-digest\/confirm\?token=\S+/)?.[0];
  if (!url) throw new Error(`no digest confirmation mailed to ${email}`);
  return url.replace(/^https?:\/\/[^/]+/, '');
}

/** Confirms the newest digest signup of `email` the way its owner does: the page's button POSTs the link. */
export async function confirmDigestByMail(t: TestContext, email: string): Promise<request.Response> {
  return request(t.app).post(await digestConfirmPath(t, email));
}
