import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.js';
import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { AdminPage, type AdminTab } from '../pages/AdminPage.js';
import { AuthDialogPage } from '../pages/AuthDialogPage.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { ShellPage } from '../pages/ShellPage.js';
import { WeeklyDigestPage } from '../pages/WeeklyDigestPage.js';

// axe (axe-core, run in the page: support/a11y.ts) on every route, in light and dark, and with every dialog open: zero
// serious or critical violations. The demo data set is the e2e product's (support/global-setup.ts).

const ADMIN_TABS: AdminTab[] = [
  'Sync History',
  'Change History',
  'Users',
  'Tenants',
  'Products',
  'Triage',
  'Trackers',
  'Contact Forms',
  'Digest',
  'Analytics',
  'AI Summary',
  'Activity',
];
const ROADMAP_TITLE = 'Microsoft Teams: Meeting recap in the calendar';
const MESSAGE_TITLE = '(Updated) Microsoft Teams: Meeting recap in the calendar';

/** Opens a route and waits for what shows it has loaded (no skeletons or loading texts left to scan). */
async function visit(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(path);
  await ready(page);
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
};

const PUBLIC_ROUTES: Array<[string, (page: Page) => Promise<void>]> = [
  [
    '/',
    async (page) => {
      await expect(page.getByTestId('roadmap-count')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Featured items' }).or(page.getByRole('heading', { name: 'Why admins use M365 Radar' }))).toBeVisible();
    },
  ],
  [
    '/dashboard',
    async (page) => {
      await heading('Dashboard')(page);
      await expect(new DashboardPage(page).rows().first()).toBeVisible();
    },
  ],
  ['/weekly-digest', async (page) => new WeeklyDigestPage(page).goto()],
  ['/contact', heading('About Us')],
  ['/privacy', heading('Privacy Policy')],
  ['/terms', heading('Terms & Conditions')],
  ['/profile', async (page) => expect(page.getByText('Please sign in to view your profile.')).toBeVisible()],
  ['/notifications', heading('Notification Settings')],
  ['/this/route/does-not-exist', heading('Page not found')],
  ['/dashboard/nowhere', heading('Page not found')],
  ['/admin/nowhere', heading('Page not found')],
  ['/weekly-digest/nowhere', heading('Page not found')],
];

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`accessibility, ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    for (const [path, ready] of PUBLIC_ROUTES) {
      test(`route ${path}`, async ({ page }) => {
        await visit(page, path, ready);
        await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
        await expectAccessible(page, `${path} (${colorScheme})`);
      });
    }

    test('the signed-in pages', async ({ userPage: page }) => {
      await visit(page, '/profile', async (p) => expect(p.getByRole('heading', { name: 'Uma User' })).toBeVisible());
      await expectAccessible(page, `/profile signed in (${colorScheme})`);
      // Opened and cancelled only: confirming would end the worker's session.
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      const everywhere = page.getByRole('dialog', { name: 'Sign out everywhere?' });
      await expect(everywhere).toBeVisible();
      await expectAccessible(page, `sign out everywhere dialog (${colorScheme})`);
      await everywhere.getByRole('button', { name: 'Cancel' }).click();
      await expect(everywhere).toBeHidden();
      // The sign-out page the server renders for GET /api/logout (it changes nothing until its form is sent).
      await visit(page, '/api/logout', async (p) => expect(p.getByRole('heading', { name: 'Sign out?' })).toBeVisible());
      await expectAccessible(page, `/api/logout sign-out page (${colorScheme})`);
      await visit(page, '/notifications', heading('Notification Settings'));
      await expect(page.getByText(/^(Subscribed|Not subscribed)$/)).toBeVisible();
      await expect(page.getByLabel('Loading subscriptions')).toHaveCount(0);
      await expectAccessible(page, `/notifications signed in (${colorScheme})`);
    });

    test('/admin with each tab, and /test-moderator', async ({ adminPage: page }) => {
      // Eleven scans in one session; axe takes a few seconds each on a busy machine.
      test.setTimeout(180_000);
      const admin = new AdminPage(page);
      await admin.goto();
      for (const tab of ADMIN_TABS) {
        await admin.openTab(tab);
        await expect(page.getByRole('tabpanel').getByText(/^Loading /)).toHaveCount(0);
        await expectAccessible(page, `/admin ${tab} (${colorScheme})`);
      }
      await visit(page, '/test-moderator', heading('Role Impersonation'));
      await expect(page.getByRole('radiogroup')).toBeVisible();
      await expectAccessible(page, `/test-moderator (${colorScheme})`);
    });

    test('the sign-in dialog, both steps and both modes', async ({ page }) => {
      const shell = new ShellPage(page);
      const auth = new AuthDialogPage(page);
      await shell.goto('/');
      await shell.openAuthDialogFromFooter('Sign In');
      await expect(auth.title('Sign In')).toBeVisible();
      await expectAccessible(page, `sign-in dialog, e-mail step (${colorScheme})`);
      await auth.dialog.getByRole('button', { name: 'Sign up' }).click();
      await expect(auth.title('Create Account')).toBeVisible();
      await expectAccessible(page, `sign-up dialog, e-mail step (${colorScheme})`);
      await auth.requestSignUpCode({ firstName: 'Axe', lastName: 'Checker', email: uniqueEmail(`axe-${colorScheme}`) });
      await expect(auth.title('Enter Verification Code')).toBeVisible();
      await expectAccessible(page, `sign-in dialog, code step (${colorScheme})`);
    });

    test('the item dialogs and the digest signup dialog', async ({ page }) => {
      const dashboard = new DashboardPage(page);
      await dashboard.gotoItem('?roadmap=990003', ROADMAP_TITLE);
      await expect(dashboard.dialog(ROADMAP_TITLE).getByRole('button', { name: `View ${MESSAGE_TITLE}` })).toBeVisible();
      await expectAccessible(page, `roadmap item dialog (${colorScheme})`);
      await dashboard
        .dialog(ROADMAP_TITLE)
        .getByRole('button', { name: `View ${MESSAGE_TITLE}` })
        .click();
      await expect(dashboard.dialog(MESSAGE_TITLE).getByText(/Message Center ID/)).toBeVisible();
      await expect(dashboard.dialog(MESSAGE_TITLE).getByRole('button', { name: `View ${ROADMAP_TITLE}` })).toBeVisible();
      await expectAccessible(page, `message item dialog (${colorScheme})`);

      const digest = new WeeklyDigestPage(page);
      await digest.goto();
      await digest.openSignup();
      await expectAccessible(page, `digest signup dialog (${colorScheme})`);
    });

    test('the moderation dialog', async ({ moderatorPage: page }) => {
      const dashboard = new DashboardPage(page);
      const dialog = await dashboard.gotoItem('?roadmap=990003', ROADMAP_TITLE);
      await dialog.getByRole('button', { name: 'Moderate' }).click();
      await expect(page.getByRole('dialog', { name: `Moderate: ${ROADMAP_TITLE}` })).toBeVisible();
      await expectAccessible(page, `moderation dialog (${colorScheme})`);
    });
  });
}
