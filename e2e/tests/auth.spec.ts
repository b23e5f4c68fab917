import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { AuthDialogPage } from '../pages/AuthDialogPage.js';
import { ShellPage } from '../pages/ShellPage.js';

test.describe('passwordless sign-in', () => {
  test('sign up with the code from the mailbox, see the welcome toast and the name, then sign out', async ({ page, mailbox }) => {
    const shell = new ShellPage(page);
    const auth = new AuthDialogPage(page);
    const email = uniqueEmail('ada');

    await shell.goto('/');
    await shell.openAuthDialogFromFooter('Sign Up');
    await expect(auth.title('Create Account')).toBeVisible();
    await expect(auth.sendCodeButton).toBeDisabled();
    await auth.requestSignUpCode({ firstName: 'Ada', lastName: 'Lovelace', email });
    await expect(auth.title('Enter Verification Code')).toBeVisible();
    await expect(shell.toast('Verification code sent')).toBeVisible();

    const code = await mailbox.signInCode(email);
    await expect(auth.signInButton).toBeDisabled();
    await auth.submitCode(code);

    // The page reloads after sign-in; the welcome toast survives the reload.
    await expect(shell.toast('Successfully signed in')).toBeVisible();
    await expect(shell.toast(/notification subscriptions/)).toBeVisible();
    const menu = await shell.openAccountMenu();
    await expect(menu.getByText('Ada Lovelace')).toBeVisible();
    await expect(menu.getByText(email)).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Admin Panel' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await shell.signOut();
    await expect(shell.toast('Signed out successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    const guestMenu = await shell.openAccountMenu();
    await expect(guestMenu.getByText('Guest User')).toBeVisible();
    await expect(guestMenu.getByText('Sign in for notifications and more')).toBeVisible();
  });

  test('a wrong code is refused with the server message; the sign-in link opens the dialog', async ({ page, mailbox }) => {
    const shell = new ShellPage(page);
    const auth = new AuthDialogPage(page);
    const email = uniqueEmail('grace');

    await shell.goto('/');
    await shell.openAuthDialogFromFooter('Sign Up');
    await auth.requestSignUpCode({ firstName: 'Grace', lastName: 'Hopper', email });
    const code = await mailbox.signInCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    await auth.submitCode(wrong);
    await expect(shell.toasts.getByRole('alert')).toContainText('Verification failed');
    await expect(auth.title('Enter Verification Code')).toBeVisible();

    // /api/login redirects to /?signin=1, which opens the sign-in dialog.
    await page.goto('/api/login');
    await expect(auth.title('Sign In')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the sign-in dialog blames no passkey when nobody tried one (Chromium without an authenticator)', async ({ page }) => {
    const shell = new ShellPage(page);
    const auth = new AuthDialogPage(page);
    await shell.goto('/');
    // The passkey offer in the e-mail field's autofill asks the server for its options when the dialog opens.
    const offered = page.waitForResponse((res) => res.url().endsWith('/api/auth/passkeys/sign-in-options'));
    await shell.openAuthDialogFromFooter('Sign In');
    await expect(auth.title('Sign In')).toBeVisible();
    await expect(auth.passkeyButton).toBeVisible();
    await offered;
    await page.waitForTimeout(1_500);
    await expect(auth.passkeyError).toHaveCount(0);
    await expect(auth.dialog.getByRole('alert')).toHaveCount(0);

    // Typing an address (the autofill offer still waiting) says nothing about passkeys either.
    await auth.dialog.getByLabel('Email').fill('nobody-tried@example.com');
    await page.waitForTimeout(500);
    await expect(auth.passkeyError).toHaveCount(0);
    await expect(auth.sendCodeButton).toBeEnabled();
  });

  test('the passkey offer stays silent when the browser refuses it (the site opened by another name than PUBLIC_URL)', async ({ page, baseURL }) => {
    // At 127.0.0.1 Chromium refuses the conditional passkey request at once (SecurityError: the relying party is
    // localhost): that is no passkey anyone tried.
    const other = (baseURL ?? '').replace('//localhost', '//127.0.0.1');
    const shell = new ShellPage(page);
    const auth = new AuthDialogPage(page);
    const offered = page.waitForResponse((res) => res.url().endsWith('/api/auth/passkeys/sign-in-options'));
    await page.goto(`${other}/?signin=1`);
    await expect(auth.title('Sign In')).toBeVisible();
    await expect(auth.passkeyButton).toBeVisible();
    // The offer was made: the api gave its options, and Chromium refused the request for a relying party
    // (localhost) that is not this page's host, before anyone could choose a passkey.
    expect((await offered).status()).toBe(200);
    await page.waitForTimeout(1_500);
    await expect(auth.passkeyError).toHaveCount(0);
    await expect(auth.dialog.getByRole('alert')).toHaveCount(0);
    await expect(shell.toasts.getByRole('alert')).toHaveCount(0);
  });
});
