import { expect, type Locator, type Page } from '@playwright/test';
import { pickPerson } from './people.js';

export type TriageStateLabel = 'New' | 'Relevant' | 'In progress' | 'Done' | 'Not relevant';

/** The Triage panel of an item's dialog: state, owner, the conversation, and the notices of rules and expiry. Role locators only. */
export class TriagePanelPage {
  readonly page: Page;
  readonly region: Locator;
  readonly state: Locator;
  /** The owner's type-ahead, for moderators and admins. */
  readonly ownerPicker: Locator;
  /** The owner's name, read-only, for everyone else. */
  readonly ownerName: Locator;
  readonly commentBox: Locator;

  /** `dialog`: the item's dialog the panel is in. */
  constructor(dialog: Locator) {
    this.page = dialog.page();
    this.region = dialog.getByRole('region', { name: 'Triage' });
    this.state = this.region.getByRole('combobox', { name: 'State' });
    this.ownerPicker = this.region.getByRole('combobox', { name: 'Owner' });
    this.ownerName = this.region.getByRole('textbox', { name: 'Owner' });
    this.commentBox = this.region.getByLabel('Add a comment');
  }

  async expectState(label: TriageStateLabel) {
    await expect(this.state).toHaveText(label);
  }

  /** Picks a state and waits until the panel shows it saved. */
  async setState(label: TriageStateLabel) {
    await this.state.click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
    await this.expectState(label);
  }

  /** Gives the record to the person with this address (moderators and admins). */
  async assignTo(email: string) {
    await pickPerson(this.ownerPicker, email);
  }

  /** The line naming who changed the record last. */
  lastChangedBy(who: string): Locator {
    return this.region.getByText(`Last changed by ${who}`);
  }

  /** Posts a comment; `lastComment` shows it once saved. */
  async comment(text: string) {
    await this.commentBox.fill(text);
    await this.region.getByRole('button', { name: 'Comment' }).click();
  }

  lastComment(): Locator {
    return this.region.getByRole('article').last();
  }

  /** On a record whose item Microsoft no longer lists: closes it as Not relevant in one click. */
  async closeAsNoLongerApplies() {
    await this.region.getByRole('button', { name: 'Close: no longer applies' }).click();
  }
}
