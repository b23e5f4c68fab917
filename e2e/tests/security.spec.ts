import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { ShellPage } from '../pages/ShellPage.js';
import { signIn } from '../support/sign-in.js';

/** Security behaviour a browser must show: the CSP lets the product run, sign-out needs a same-origin POST. */
test.describe('security in the browser', () => {
  test('the Content-Security-Policy lets the shell and its remotes run, with no violation', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const shell = new ShellPage(page);
    for (const path of ['/', '/dashboard', '/weekly-digest', '/contact', '/admin', '/profile', '/no-such-page']) {
      await shell.goto(path);
      await expect(page.locator('#main')).not.toBeEmpty();
    }
    // The runtime configuration came from the inline script the policy allows by its hash (not only from /config.json).
    expect(await page.evaluate(() => typeof (window as unknown as Record<string, unknown>).__RADAR_CONFIG__)).toBe('object');
    const response = await page.request.get('/');
    expect(response.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-[^']+'/);
    expect(response.headers()['content-security-policy']).not.toMatch(/'nonce-/);
    expect(response.headers()['content-security-policy']).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(violations).toEqual([]);
  });

  test("the mobile menu's Sign Out signs out (through the sign-out page) and says so", async ({ browser, mailbox }) => {
    const baseURL = process.env.RADAR_BASE_URL ?? '';
    const state = await signIn(browser, baseURL, mailbox, { firstName: 'Moby', lastName: 'Le', email: uniqueEmail('mobile') });
    const context = await browser.newContext({ baseURL, storageState: state, viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    const shell = new ShellPage(page);
    await shell.goto('/weekly-digest');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Sign Out' }).click();
    await expect(shell.toast('Signed out successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    const menu = await shell.openAccountMenu();
    await expect(menu.getByText('Guest User')).toBeVisible();
    await context.close();
  });

  test('opening /api/logout from elsewhere asks first; staying signed in is one click', async ({ browser, mailbox }) => {
    const baseURL = process.env.RADAR_BASE_URL ?? '';
    const state = await signIn(browser, baseURL, mailbox, { firstName: 'Link', lastName: 'Clicker', email: uniqueEmail('link') });
    const context = await browser.newContext({ baseURL, storageState: state });
    const page = await context.newPage();
    await page.goto('/api/logout');
    await expect(page.getByRole('heading', { name: 'Sign out?' })).toBeVisible();
    await page.getByRole('link', { name: /Stay signed in/ }).click();
    const shell = new ShellPage(page);
    const menu = await shell.openAccountMenu();
    await expect(menu.getByText('Link Clicker')).toBeVisible();
    await context.close();
  });

  test('Sign out everywhere on the profile ends the sessions of every browser', async ({ browser, mailbox }) => {
    const baseURL = process.env.RADAR_BASE_URL ?? '';
    const email = uniqueEmail('everywhere');
    const laptop = await signIn(browser, baseURL, mailbox, { firstName: 'Eve', lastName: 'Rywhere', email });
    const phone = await signIn(browser, baseURL, mailbox, { firstName: 'Eve', lastName: 'Rywhere', email });
    const context = await browser.newContext({ baseURL, storageState: laptop });
    const page = await context.newPage();
    const shell = new ShellPage(page);
    await shell.goto('/profile');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('dialog', { name: 'Sign out everywhere?' }).getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(shell.toast('Signed out on every device')).toBeVisible();
    await context.close();
    const other = await browser.newContext({ baseURL, storageState: phone });
    const otherPage = await other.newPage();
    await otherPage.goto('/profile');
    await expect(otherPage.getByText('Please sign in to view your profile.')).toBeVisible();
    await other.close();
  });
});
