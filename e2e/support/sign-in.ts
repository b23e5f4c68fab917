import { expect, type Browser, type BrowserContextOptions } from '@playwright/test';
import { AuthDialogPage } from '../pages/AuthDialogPage.js';
import { ShellPage } from '../pages/ShellPage.js';
import type { Mailbox } from './mailbox.js';

export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/** Signs up (or in) through the real passwordless flow in a fresh context; returns its storage state. */
export async function signInThroughDialog(
  browser: Browser,
  baseURL: string,
  mailbox: Mailbox,
  user: { firstName: string; lastName: string; email: string },
): Promise<StorageState> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const shell = new ShellPage(page);
  const auth = new AuthDialogPage(page);
  await shell.goto('/');
  const before = mailbox.messagesTo(user.email).length;
  await shell.openAuthDialogFromFooter('Sign Up');
  await auth.requestSignUpCode(user);
  await expect(auth.title('Enter Verification Code')).toBeVisible();
  await auth.submitCode(await mailbox.signInCode(user.email, before));
  await expect(shell.toast('Successfully signed in')).toBeVisible();
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * Gives a signed-up user a role through the admin API, acting as the e2e admin (whose storage state is given):
 * the same calls the admin Users tab makes.
 */
export async function grantRole(browser: Browser, baseURL: string, adminState: StorageState, email: string, roleName: string): Promise<void> {
  const context = await browser.newContext({ baseURL, storageState: adminState });
  try {
    const users = (await (await context.request.get('/api/admin/app-users')).json()) as { id: number; email: string }[];
    const roles = (await (await context.request.get('/api/admin/roles')).json()) as { id: number; name: string }[];
    const user = users.find((u) => u.email === email.toLowerCase());
    const role = roles.find((r) => r.name === roleName);
    if (!user || !role) throw new Error(`cannot grant ${roleName} to ${email}: user or role not found`);
    const response = await context.request.post('/api/admin/user-roles', { data: { userId: user.id, roleId: role.id } });
    expect(response.ok()).toBeTruthy();
  } finally {
    await context.close();
  }
}
