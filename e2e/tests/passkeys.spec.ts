import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { grantRole, signIn, signInThroughDialog } from '../support/sign-in.js';
import { AuthDialogPage } from '../pages/AuthDialogPage.js';
import { ShellPage } from '../pages/ShellPage.js';

// Passkeys end to end in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain): a user adds
// a passkey on /profile, signs out and signs in with it; an admin who has a passkey but signed in with a code is asked
// for it before the admin page, and gets in with it.

/** A platform authenticator that holds discoverable credentials and answers at once, as a fingerprint reader would. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function addPasskey(page: Page, name: string) {
  await page.goto('/profile');
  const field = page.getByLabel('Name of the new passkey');
  await field.fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(new ShellPage(page).toast('Passkey added')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your passkeys' })).toContainText(name);
}

const account = (prefix: string) => ({ firstName: 'Pia', lastName: 'Passkey', email: uniqueEmail(prefix) });

test('add a passkey on the profile, sign out, and sign in with it instead of a code', async ({ browser, baseURL, mailbox }) => {
  const user = account('e2e-passkey');
  const state = await signInThroughDialog(browser, baseURL ?? '', mailbox, user);
  const context = await browser.newContext({ baseURL, storageState: state });
  try {
    const page = await context.newPage();
    await addVirtualAuthenticator(page);
    await addPasskey(page, 'E2E laptop');
    await expect(page.getByRole('list', { name: 'Your passkeys' })).toContainText('not used yet');

    const shell = new ShellPage(page);
    await shell.signOut();
    await expect(shell.toast('Signed out successfully')).toBeVisible();
    const before = mailbox.messagesTo(user.email).length;
    // Signing in reloads the page after the session refresh that already shows the account menu, and a navigation
    // started before that reload ends is aborted by it: this document is marked so the test can wait for the next.
    await page.evaluate(() => {
      (window as { beforeSignIn?: boolean }).beforeSignIn = true;
    });
    await shell.openAuthDialogFromFooter('Sign In');
    const auth = new AuthDialogPage(page);
    // Chromium offers the passkey in the e-mail field's autofill (conditional UI), and the virtual authenticator may
    // answer that at once; otherwise the button signs in. Either way no code is mailed and the page reloads signed in.
    await Promise.race([
      auth.dialog
        .getByRole('button', { name: 'Sign in with a passkey' })
        .click()
        .catch(() => undefined),
      page.waitForEvent('load'),
    ]);
    // Signed in: a new document (the reload), whose account menu names the user's initials (a guest's is plain
    // "Account menu"), so the test waits for the ceremony and the reload rather than for the click alone.
    await expect.poll(() => page.evaluate(() => (window as { beforeSignIn?: boolean }).beforeSignIn === true).catch(() => true)).toBe(false);
    await expect(page.getByRole('button', { name: /^Account menu: / })).toBeVisible();
    expect(mailbox.messagesTo(user.email)).toHaveLength(before);
    await page.goto('/profile');
    await expect(page.getByRole('list', { name: 'Your passkeys' })).toContainText('last used');
  } finally {
    await context.close();
  }
});

test('an admin with a passkey who signed in with a code is asked for it before the admin page', async ({ browser, baseURL, mailbox, adminState }) => {
  const admin = account('e2e-passkey-admin');
  await signIn(browser, baseURL ?? '', mailbox, admin);
  await grantRole(browser, baseURL ?? '', adminState, admin.email, 'Admin');
  // A role change ends the holder's sessions: the new admin signs in again, with a code.
  const state = await signIn(browser, baseURL ?? '', mailbox, admin);
  const context = await browser.newContext({ baseURL, storageState: state });
  try {
    const page = await context.newPage();
    await addVirtualAuthenticator(page);
    // Without a passkey, a recent code opens the admin page, with a reminder.
    await page.goto('/admin');
    await expect(page.getByText(/Add a passkey to your profile/)).toBeVisible();
    await addPasskey(page, 'E2E admin key');

    // Now the code sign-in is not enough: the admin page asks for the passkey, and opens with it.
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Verify it’s you' })).toBeVisible();
    await expect(page.getByText('Admin pages need a sign-in with your passkey: sign in with it to continue')).toBeVisible();
    await page.getByRole('button', { name: 'Sign in with your passkey' }).click();
    await expect(page.getByRole('tab', { name: 'Trackers' })).toBeVisible();
    await expect(page.getByText(/Add a passkey to your profile/)).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('removing a passkey asks an admin who signed in with a code for the passkey first', async ({ browser, baseURL, mailbox, adminState }) => {
  const admin = account('e2e-passkey-remove');
  await signIn(browser, baseURL ?? '', mailbox, admin);
  await grantRole(browser, baseURL ?? '', adminState, admin.email, 'Admin');
  const state = await signIn(browser, baseURL ?? '', mailbox, admin);
  const context = await browser.newContext({ baseURL, storageState: state });
  try {
    const page = await context.newPage();
    await addVirtualAuthenticator(page);
    // The first passkey: a code sign-in of the last minutes is enough.
    await addPasskey(page, 'E2E key to remove');
    const before = mailbox.messagesTo(admin.email).length;

    // Removing it wants a recent passkey check: the profile asks for the passkey, then removes it.
    await page.getByRole('button', { name: 'Remove passkey E2E key to remove' }).click();
    await page.getByRole('dialog', { name: 'Remove this passkey?' }).getByRole('button', { name: 'Remove' }).click();
    const ask = page.getByRole('dialog', { name: 'Confirm with your passkey' });
    await expect(ask).toContainText('Confirm with your passkey to continue: this change needs a recent passkey check');
    await ask.getByRole('button', { name: 'Use passkey' }).click();
    await expect(new ShellPage(page).toast('Passkey removed')).toBeVisible();
    await expect(page.getByText('No passkeys yet')).toBeVisible();
    // The removal is mailed.
    await expect
      .poll(() =>
        mailbox
          .messagesTo(admin.email)
          .slice(before)
          .map((m) => m.subject),
      )
      .toContain('A passkey “E2E key to remove” was removed from your M365 Radar account');
  } finally {
    await context.close();
  }
});
