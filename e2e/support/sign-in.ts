import { expect, type Browser, type BrowserContextOptions } from '@playwright/test';
import { appUsersResponse, endpointUrl, endpoints, rolesResponse } from '@radar/contracts';
import { AuthDialogPage } from '../pages/AuthDialogPage.js';
import { ShellPage } from '../pages/ShellPage.js';
import type { Mailbox } from './mailbox.js';

export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

export interface Account {
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * Signs up (or in, for an existing address) through the real passwordless api in a fresh context: the requests the
 * sign-in dialog makes (sign-up, the code read from the test mailbox, verify), without loading a page; returns the
 * context's storage state with the session cookie the product set. A cold page load and the dialog cost seconds a
 * sign-in on two cores, and most tests sign in only to start somewhere: the dialog itself is tested in
 * tests/auth.spec.ts and scanned in tests/accessibility.spec.ts.
 */
export async function signIn(browser: Browser, baseURL: string, mailbox: Mailbox, user: Account): Promise<StorageState> {
  const context = await browser.newContext({ baseURL });
  try {
    const before = mailbox.messagesTo(user.email).length;
    const signup = await context.request.post(endpointUrl(endpoints.auth.signup), { data: user });
    expect(signup.ok(), `sign-up of ${user.email}: ${signup.status()}`).toBeTruthy();
    const code = await mailbox.signInCode(user.email, before);
    const verify = await context.request.post(endpointUrl(endpoints.auth.verifyCode), { data: { email: user.email, code } });
    expect(verify.ok(), `sign-in of ${user.email}: ${verify.status()}`).toBeTruthy();
    const state = await context.storageState();
    expect(state.cookies.map((c) => c.name)).toContain('radar_session');
    return state;
  } finally {
    await context.close();
  }
}

/**
 * Signs up (or in, for an existing address) through the real passwordless flow in a fresh context, reading the code
 * from the test mailbox; returns the context's storage state. Kept for the passkey sign-in test: with an account
 * signed in through the api (`signIn`), its sign-out and passkey sign-in ended signed out in two of three full runs,
 * and in one of five runs of that test alone after the test waited for the sign-in's reload (its other race), not
 * yet understood; through the dialog it passed five of five.
 */
export async function signInThroughDialog(browser: Browser, baseURL: string, mailbox: Mailbox, user: Account): Promise<StorageState> {
  const context = await browser.newContext({ baseURL });
  try {
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
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/**
 * Gives a signed-up user a role through the admin API, acting as the e2e admin (whose storage state is given): the
 * same calls the admin Users tab makes, with the answers read through their contracts.
 */
export async function grantRole(browser: Browser, baseURL: string, adminState: StorageState, email: string, roleName: string): Promise<void> {
  const context = await browser.newContext({ baseURL, storageState: adminState });
  try {
    const get = async (url: string) => {
      const response = await context.request.get(url);
      expect(response.ok(), `GET ${url}`).toBeTruthy();
      return (await response.json()) as unknown;
    };
    const users = appUsersResponse.parse(await get(endpointUrl(endpoints.admin.users)));
    const roles = rolesResponse.parse(await get(endpointUrl(endpoints.admin.roles)));
    const user = users.find((u) => u.email === email.toLowerCase());
    const role = roles.find((r) => r.name === roleName);
    if (!user || !role) throw new Error(`cannot grant ${roleName} to ${email}: user or role not found`);
    // Sent as the admin page sends it: a signed-in write must name its origin.
    const response = await context.request.post(endpointUrl(endpoints.admin.assignRole), {
      data: { userId: user.id, roleId: role.id },
      headers: { Origin: new URL(baseURL).origin },
    });
    expect(response.ok()).toBeTruthy();
  } finally {
    await context.close();
  }
}
