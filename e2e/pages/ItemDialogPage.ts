import { expect, type Locator, type Page } from '@playwright/test';
import { ShellPage } from './ShellPage.js';
import { TriagePanelPage } from './TriagePanelPage.js';

/** An item's dialog on the dashboard: its sections, the triage panel and the tasks in trackers. Role locators only. */
export class ItemDialogPage {
  readonly page: Page;
  readonly triage: TriagePanelPage;
  readonly tasks: Locator;

  /** `dialog`: the open dialog, as DashboardPage.openItem or gotoItem answers it. */
  constructor(readonly dialog: Locator) {
    this.page = dialog.page();
    this.triage = new TriagePanelPage(dialog);
    this.tasks = dialog.getByRole('region', { name: 'Tasks in trackers' });
  }

  /** A named section of the dialog (a Service Health issue's 'Status timeline', 'Updates', the 'Tenants' that received it). */
  section(name: 'Status timeline' | 'Updates' | 'Tenants'): Locator {
    return this.dialog.getByRole('region', { name });
  }

  /** Creates a task for the item in a connected tracker; waits for the toast that says it was created. */
  async createTask(tracker: string) {
    await this.tasks.getByRole('button', { name: `Create task in ${tracker}` }).click();
    await expect(new ShellPage(this.page).toast('Task created')).toBeVisible();
  }

  /** The link to a task in its tracker, by the tracker's key (CHG-1). */
  taskLink(key: string): Locator {
    return this.tasks.getByRole('link', { name: key });
  }

  async close() {
    await this.dialog.getByRole('button', { name: 'Close' }).click();
  }

  /** Leaves the dialog with Escape, as a keyboard user would. */
  async dismiss() {
    await this.page.keyboard.press('Escape');
  }
}
