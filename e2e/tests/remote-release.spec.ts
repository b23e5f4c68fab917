import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { AdminPage, E2E_ADMIN_EMAIL } from '../pages/AdminPage.js';
import { RemoteAreaPage } from '../pages/RemoteAreaPage.js';
import { signIn, type StorageState } from '../support/sign-in.js';
import { copyRelease, startStaticHost, type StaticHost } from '../support/static-host.js';

/** The @radar/shared-ui version the built shell provides (its build info, what the Test button compares with). */
const SHELL_SHARED_UI = (
  JSON.parse(fs.readFileSync(new URL('../../shell/dist/radar-build.json', import.meta.url), 'utf8')) as { shared: Record<string, string> }
).shared['@radar/shared-ui'];

// mfe-admin shipped on its own. The shell runs on the product's port; three releases of mfe-admin sit on
// a plain static server on another port (another origin, as a CDN): v1 (the build), v2 (a copy with another
// version string) and v3 (a copy built for @radar/shared-ui 1.x). The registry is switched in Admin → Remotes.

const ADMIN_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../mfe-admin/dist');
const V2 = '0.2.0+e2e00002';
const V3 = '1.0.0+e2e00003';

test.describe('releasing a remote on its own', () => {
  test.describe.configure({ mode: 'serial' });
  let adminState: StorageState;
  let host: StaticHost;
  let releases: string;
  let api: APIRequestContext;
  let v1: string;
  const manifestUrl = (release: string) => `${host.origin}/${release}/mf-manifest.json`;

  test.beforeAll(async ({ browser, mailbox }) => {
    releases = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-releases-'));
    v1 = (JSON.parse(fs.readFileSync(path.join(ADMIN_DIST, 'mf-manifest.json'), 'utf8')) as { metaData: { radar: { version: string } } }).metaData.radar
      .version;
    copyRelease(ADMIN_DIST, path.join(releases, 'v1'), v1);
    copyRelease(ADMIN_DIST, path.join(releases, 'v2'), V2);
    copyRelease(ADMIN_DIST, path.join(releases, 'v3'), V3, { '@radar/shared-ui': '^1.0.0' });
    host = await startStaticHost(releases);
    adminState = await signIn(browser, process.env.RADAR_BASE_URL ?? '', mailbox, {
      firstName: 'Erin',
      lastName: 'Admin',
      email: E2E_ADMIN_EMAIL,
    });
    // Writes as the admin page makes them: with its origin.
    api = await playwrightRequest.newContext({
      baseURL: process.env.RADAR_BASE_URL,
      storageState: adminState,
      extraHTTPHeaders: { Origin: new URL(process.env.RADAR_BASE_URL ?? 'http://localhost').origin },
    });
  });

  test.afterAll(async () => {
    // Every other suite loads the admin app the api serves: put it back.
    await api?.put('/api/admin/remotes/admin', { data: { url: '/remotes/admin/mf-manifest.json' } });
    await api?.dispose();
    await host?.close();
    fs.rmSync(releases, { recursive: true, force: true });
  });

  test('switch to a release on another origin, see its version after a reload, and roll back', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: process.env.RADAR_BASE_URL, storageState: adminState });
    const page = await context.newPage();
    const admin = new AdminPage(page);
    const version = page.getByText(/^Admin app version /);

    // v1 from the static host: the manifest and scripts come cross-origin, allowed by CORS and the page's CSP.
    expect((await api.put('/api/admin/remotes/admin', { data: { url: manifestUrl('v1') } })).status()).toBe(200);
    const loadedFromHost = page.waitForResponse((r) => r.url() === manifestUrl('v1') && r.ok());
    await page.goto('/admin?tab=remotes');
    await loadedFromHost;
    await expect(admin.heading).toBeVisible();
    await expect(version).toHaveText(`Admin app version ${v1}`);

    // Admin → Remotes: Test the second release, switch to it; a reload loads it.
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Admin', exact: true }) });
    await row.getByRole('button', { name: 'Change URL of Admin' }).click();
    const dialog = admin.dialog('Change the Admin URL');
    await dialog.getByLabel('Manifest URL for Admin').fill(manifestUrl('v2'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(admin.toast('Remote updated')).toBeVisible();
    await expect(row).toContainText(V2);
    await row.getByRole('button', { name: 'Test Admin' }).click();
    await expect(page.getByRole('alert', { name: 'Test result for Admin' })).toContainText(`Admin ${V2} answers and is compatible`);
    await page.reload();
    await expect(version).toHaveText(`Admin app version ${V2}`);
    // The shell reported the load of the new release.
    await expect
      .poll(
        async () =>
          ((await (await api.get('/api/admin/remotes')).json()) as { name: string; lastLoadedAt: string | null }[]).find((r) => r.name === 'admin')
            ?.lastLoadedAt,
      )
      .not.toBeNull();

    // One-click rollback (in v2's own Remotes tab) and a reload: v1 again.
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Admin', exact: true }) })
      .getByRole('button', { name: 'Roll back Admin' })
      .click();
    await expect(admin.toast('Remote rolled back')).toBeVisible();
    await page.reload();
    await expect(version).toHaveText(`Admin app version ${v1}`);
    await context.close();
  });

  test('an incompatible release shows the contained error naming the mismatch; the header and other routes keep working', async ({ browser }) => {
    expect((await api.put('/api/admin/remotes/admin', { data: { url: manifestUrl('v3') } })).status()).toBe(200);
    const tested = (await (await api.post('/api/admin/remotes/admin/test')).json()) as { compatible: boolean; message: string };
    expect(tested).toMatchObject({
      compatible: false,
      message: `Incompatible: Admin ${V3} was built for @radar/shared-ui ^1.0.0 (this site has ${SHELL_SHARED_UI}).`,
    });

    const context = await browser.newContext({ baseURL: process.env.RADAR_BASE_URL, storageState: adminState });
    const page = await context.newPage();
    const admin = new AdminPage(page);
    const remote = new RemoteAreaPage(page);
    await page.goto('/admin');
    await expect(remote.unavailable('Admin')).toBeVisible();
    await expect(remote.unavailable('Admin')).toContainText(`Admin ${V3} was built for @radar/shared-ui ^1.0.0 (this site has ${SHELL_SHARED_UI}).`);
    // Refused before any of its code ran: no admin page.
    await expect(admin.heading).toHaveCount(0);
    await admin.shell.navLink('Weekly Digest').click();
    await expect(admin.shell.heading('Weekly Digest')).toBeVisible();
    await admin.shell.navLink('Dashboard').click();
    await expect(page.getByRole('button', { name: 'Export' })).toBeVisible();

    // The admin app itself is the broken part: the shell's error offers an admin the rollback, and the page reloads.
    await page.goto('/admin');
    await remote.unavailable('Admin').getByRole('button', { name: 'Roll back Admin' }).click();
    await expect(admin.heading).toBeVisible();
    await expect(page.getByText(/^Admin app version /)).toHaveText(`Admin app version ${v1}`);
    await context.close();
  });
});
