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

test('the server answers 404 for a path no page has; a remote sub-path is 200 with a noindex page', async ({ page }) => {
  const unknown = await page.goto('/this/route/does-not-exist');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const subPath = await page.goto('/dashboard/nowhere');
  expect(subPath?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.locator('head meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.getByRole('main')).toHaveCount(1);
  expect((await page.goto('/dashboard'))?.status()).toBe(200);
  await expect(page.locator('head meta[name="robots"]')).toHaveCount(0);
});
