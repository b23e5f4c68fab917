import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { isFocused, tabTo } from '../support/keyboard.js';
import { AuthDialogPage } from '../pages/AuthDialogPage.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { ShellPage } from '../pages/ShellPage.js';

// Keyboard only: no clicks, no fills. Sign-in, the dashboard filters and the item dialog (focus moves in, stays in,
// and comes back).

test('sign up and sign in with the keyboard alone', async ({ page, mailbox }) => {
  const shell = new ShellPage(page);
  const auth = new AuthDialogPage(page);
  const email = uniqueEmail('keys');
  await shell.goto('/');
  await tabTo(page, shell.footerAccount.getByRole('button', { name: 'Sign Up' }));
  await page.keyboard.press('Enter');
  await expect(auth.title('Create Account')).toBeVisible();
  // Focus starts in the first field of the form.
  await expect(auth.dialog.getByLabel('First name')).toBeFocused();
  await page.keyboard.type('Kay');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Board');
  await tabTo(page, auth.dialog.getByLabel('Email'));
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(auth.title('Enter Verification Code')).toBeVisible();
  await expect(auth.codeInput).toBeFocused();
  await page.keyboard.type(await mailbox.signInCode(email));
  await page.keyboard.press('Enter');
  await expect(shell.toast('Successfully signed in')).toBeVisible();
  await tabTo(page, shell.accountButton);
  await page.keyboard.press('Enter');
  await expect(shell.accountMenu.getByText('Kay Board')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(shell.accountMenu).toBeHidden();
  await expect(shell.accountButton).toBeFocused();
});

test('filter the dashboard with the keyboard alone', async ({ page }) => {
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await expect(dashboard.rows().first()).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Show Filters' }));
  await page.keyboard.press('Enter');
  await expect(dashboard.filters).toBeVisible();
  const lastWeek = dashboard.filters.getByRole('group', { name: 'New items' }).getByRole('checkbox', { name: 'Last 7 Days' });
  await tabTo(page, lastWeek);
  await page.keyboard.press('Space');
  await expect(lastWeek).toBeChecked();
  const clearAll = dashboard.filters.getByRole('button', { name: 'Clear All' });
  await expect(clearAll).toBeVisible();
  await tabTo(page, clearAll, { backwards: true });
  await page.keyboard.press('Enter');
  await expect(lastWeek).not.toBeChecked();
  await expect(clearAll).toHaveCount(0);
  // A collapsed section opens from its heading button.
  const products = dashboard.filters.getByRole('button', { name: 'Products', exact: true });
  await tabTo(page, products);
  await page.keyboard.press('Enter');
  await expect(products).toHaveAttribute('aria-expanded', 'true');
});

test('open an item dialog, stay inside it, and close it with the keyboard alone', async ({ page }) => {
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  const title = 'Microsoft Teams: Meeting recap in the calendar';
  await dashboard.searchFor('990003');
  const opener = dashboard.table.getByRole('button', { name: title, exact: true });
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const dialog = dashboard.dialog(title);
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/[?&]roadmap=990003/);
  // Focus is inside the dialog and stays there however far the user tabs.
  for (let presses = 0; presses < 40; presses++) {
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/roadmap=/);
  // Back where the user was.
  await expect.poll(() => isFocused(opener)).toBe(true);
});

test('"Skip to content" moves focus to the page’s main landmark, on shell and remote pages', async ({ page }) => {
  for (const [path, heading] of [
    ['/contact', 'About Us'],
    ['/weekly-digest', 'Weekly Digest'],
    ['/dashboard', 'Dashboard'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    // A server-rendered page takes keys once it has hydrated (its markup is inert until then).
    await expect(page.locator('#root[inert]')).toHaveCount(0);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await expect(page.getByRole('main').getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }
});
