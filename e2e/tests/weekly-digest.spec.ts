import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { ShellPage } from '../pages/ShellPage.js';
import { WeeklyDigestPage } from '../pages/WeeklyDigestPage.js';

test.describe('weekly digest', () => {
  test('a visitor signs up, sees the success view (which closes by itself) and confirms from the mailed link', async ({ page, mailbox }) => {
    const digest = new WeeklyDigestPage(page);
    await digest.goto();
    for (const label of ['New Items', 'Updated Items', 'Featured Items', 'Total Activity'] as const) {
      await expect(digest.stat(label)).toBeVisible();
    }

    await digest.openSignup();
    await expect(digest.submitButton).toBeDisabled();
    const email = uniqueEmail('digest');
    await digest.fillSignup({ firstName: 'Grace', lastName: 'Hopper', email });
    await expect(digest.submitButton).toBeEnabled();
    await digest.submitButton.click();

    await expect(digest.successView).toContainText('Check your inbox');
    await expect(digest.successView).toContainText('confirm your address');
    // SIGNUP_SUCCESS_CLOSE_MS is 3 s; the default 10 s expect timeout covers it without a fixed sleep.
    await expect(digest.dialog).toBeHidden();

    await digest.openSignup();
    await expect(digest.firstName).toHaveValue('');
    await expect(digest.lastName).toHaveValue('');
    await expect(digest.email).toHaveValue('');

    // Double opt-in: the mail (no name in it) links to a page whose button confirms.
    const link = await mailbox.link(email, /https?:\/\/\S+\/api\/weekly-digest\/confirm\?token=\S+/);
    expect(
      mailbox
        .messagesTo(email)
        .map((m) => m.text)
        .join('\n'),
    ).not.toContain('Grace');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
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
