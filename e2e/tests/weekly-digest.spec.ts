import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { ShellPage } from '../pages/ShellPage.js';
import { WeeklyDigestPage } from '../pages/WeeklyDigestPage.js';

test.describe('weekly digest', () => {
  test('a visitor signs up for the digest and sees the success view, which closes by itself', async ({ page }) => {
    const digest = new WeeklyDigestPage(page);
    await digest.goto();
    for (const label of ['New Items', 'Updated Items', 'Featured Items', 'Total Activity'] as const) {
      await expect(digest.stat(label)).toBeVisible();
    }

    await digest.openSignup();
    await expect(digest.submitButton).toBeDisabled();
    await digest.fillSignup({ firstName: 'Grace', lastName: 'Hopper', email: uniqueEmail('digest') });
    await expect(digest.submitButton).toBeEnabled();
    await digest.submitButton.click();

    await expect(digest.successView).toContainText("You're signed up!");
    // SIGNUP_SUCCESS_CLOSE_MS is 3 s; the default 10 s expect timeout covers it without a fixed sleep.
    await expect(digest.dialog).toBeHidden();

    await digest.openSignup();
    await expect(digest.firstName).toHaveValue('');
    await expect(digest.lastName).toHaveValue('');
    await expect(digest.email).toHaveValue('');
  });

  test("an invalid address gets the server's message in a toast, without a field-name prefix, and keeps the form", async ({ page }) => {
    const digest = new WeeklyDigestPage(page);
    const shell = new ShellPage(page);
    await digest.goto();
    await digest.openSignup();
    await digest.fillSignup({ firstName: 'Grace', lastName: 'Hopper', email: 'not-an-address' });
    await digest.submitButton.click();
    await expect(shell.toast('Please enter a valid email address', { exact: true })).toBeVisible();
    await expect(digest.email).toHaveValue('not-an-address');
    await expect(digest.submitButton).toBeEnabled();
  });
});
