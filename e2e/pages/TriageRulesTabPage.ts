import { expect, type Locator, type Page } from '@playwright/test';
import { AdminPage } from './AdminPage.js';

/** What Add rule asks for: a name, the dashboard view new items are matched against, and the state it sets. */
export interface NewTriageRule {
  name: string;
  /** A dashboard URL (path and query) whose filters a new item must match. */
  view: string;
  state: 'Relevant' | 'In progress' | 'Done' | 'Not relevant';
}

/** Admin → Triage: the triage rules, in their table and their add dialog. Role locators only. */
export class TriageRulesTabPage {
  readonly admin: AdminPage;
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.admin = new AdminPage(page);
    this.table = page.getByRole('table', { name: 'Triage rules' });
  }

  async goto() {
    await this.admin.goto('Triage');
  }

  /** Fills Add rule and saves; waits for the toast that says the rule was added. */
  async add(rule: NewTriageRule) {
    await this.page.getByRole('button', { name: 'Add rule' }).click();
    const dialog = this.admin.dialog('Add a triage rule');
    await dialog.getByLabel(/^Name/).fill(rule.name);
    await dialog.getByLabel('When a new item matches this dashboard view').fill(rule.view);
    await dialog.getByRole('combobox', { name: 'State' }).click();
    await this.page.getByRole('option', { name: rule.state, exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(this.admin.toast('Rule added')).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByRole('row').filter({ hasText: name });
  }
}
