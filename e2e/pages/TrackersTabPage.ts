import { expect, type Locator, type Page } from '@playwright/test';
import { AdminPage } from './AdminPage.js';

/** What Connect a tracker asks for Jira: the site, the account it signs in as and the project issues go to. */
export interface NewJira {
  name: string;
  siteUrl: string;
  email: string;
  apiToken: string;
  projectKey: string;
}

/** What Connect a tracker asks for ServiceNow signing in with an OAuth client of the instance's Application Registry. */
export interface NewServiceNowOAuth {
  name: string;
  instanceUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Admin → Trackers: the work trackers, their connect dialog, and each row's Authorize, Test and Pull now. Role locators only. */
export class TrackersTabPage {
  readonly admin: AdminPage;
  readonly table: Locator;
  readonly connectDialog: Locator;

  constructor(readonly page: Page) {
    this.admin = new AdminPage(page);
    this.table = page.getByRole('table', { name: 'Trackers' });
    this.connectDialog = this.admin.dialog('Connect a tracker');
  }

  async goto() {
    await this.admin.goto('Trackers');
  }

  /** Connects Jira (the dialog's first tracker) with an API token; waits for the toast that says it is connected. */
  async connectJira(jira: NewJira) {
    await this.page.getByRole('button', { name: 'Connect a tracker' }).click();
    const dialog = this.connectDialog;
    await dialog.getByLabel(/^Name/).fill(jira.name);
    await dialog.getByLabel(/^Site URL/).fill(jira.siteUrl);
    await dialog.getByLabel(/^Account e-mail/).fill(jira.email);
    await dialog.getByLabel(/^API token/).fill(jira.apiToken);
    await dialog.getByLabel(/^Project key/).fill(jira.projectKey);
    await this.save();
  }

  /**
   * Opens Connect a tracker for ServiceNow with an OAuth client, up to the client's fields: the dialog then shows the
   * callback URL to register with the app. `finishServiceNowOAuth` fills the client and saves.
   */
  async startServiceNowOAuth(snow: Pick<NewServiceNowOAuth, 'name' | 'instanceUrl'>) {
    await this.page.getByRole('button', { name: 'Connect a tracker' }).click();
    const dialog = this.connectDialog;
    await this.choose(dialog.getByRole('combobox', { name: 'Tracker' }), 'ServiceNow');
    await dialog.getByLabel(/^Name/).fill(snow.name);
    await dialog.getByLabel(/^Instance URL/).fill(snow.instanceUrl);
    await this.choose(dialog.getByRole('combobox', { name: 'Sign in with' }), 'OAuth client (Application Registry)');
  }

  /** The dialog's line naming the callback URL an OAuth client must be registered with. */
  callbackUrlHint(): Locator {
    return this.connectDialog.getByText(/Register this callback URL with the app: .*\/api\/admin\/integrations\/oauth\/callback/);
  }

  async finishServiceNowOAuth(snow: Pick<NewServiceNowOAuth, 'clientId' | 'clientSecret'>) {
    await this.connectDialog.getByLabel(/^Client ID/).fill(snow.clientId);
    await this.connectDialog.getByLabel(/^Client secret/).fill(snow.clientSecret);
    await this.save();
  }

  row(name: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  /** Runs Test on a tracker's row; answers the outcome it shows (one line per check). */
  async test(name: string): Promise<Locator> {
    await this.row(name)
      .getByRole('button', { name: `Test ${name}` })
      .click();
    return this.page.getByLabel(`Connection test of ${name}`);
  }

  /** Runs Pull now on a tracker's row; waits for the toast that says its tasks were read. */
  async pullNow(name: string) {
    await this.row(name)
      .getByRole('button', { name: `Pull now ${name}` })
      .click();
    await expect(this.admin.toast('Tasks read')).toBeVisible();
  }

  /**
   * Runs Authorize on a tracker's row: the browser goes to the tracker's consent page and comes back to this tab;
   * waits for the toast that says it is authorized.
   */
  async authorize(name: string) {
    await this.row(name)
      .getByRole('button', { name: `Authorize ${name}` })
      .click();
    await this.page.waitForURL(/\/admin\?tab=integrations$/);
    await expect(this.admin.toast('Tracker authorized')).toBeVisible();
  }

  private async choose(select: Locator, option: string) {
    await select.click();
    await this.page.getByRole('option', { name: option }).click();
  }

  private async save() {
    await this.connectDialog.getByRole('button', { name: 'Save' }).click();
    await expect(this.admin.toast('Tracker connected')).toBeVisible();
  }
}
