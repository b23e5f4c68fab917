import { expect, test } from '../support/fixtures.js';
import { ShellPage } from '../pages/ShellPage.js';

test('the theme choice is applied to <html> and persists across a reload', async ({ page }) => {
  const shell = new ShellPage(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await shell.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveClass(/\blight\b/);

  await shell.chooseTheme('Dark');
  await expect(html).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => window.localStorage.getItem('radar-ui-theme'))).toBe('dark');

  // System follows the operating-system preference.
  await shell.chooseTheme('System');
  await expect(html).toHaveClass(/\blight\b/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/\bdark\b/);
});
