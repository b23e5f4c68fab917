import { expect, test } from '../support/fixtures.js';
import { ShellPage } from '../pages/ShellPage.js';

test('an unknown route shows the 404 page inside the normal layout', async ({ page }) => {
  const shell = new ShellPage(page);
  await shell.goto('/this/route/does-not-exist');
  await expect(shell.heading('Page not found')).toBeVisible();
  await expect(page.getByText('Error 404')).toBeVisible();
  await expect(shell.logo).toBeVisible();
  await page.getByRole('link', { name: 'Go to home page' }).click();
  await expect(page).toHaveURL(/\/$/);
});
