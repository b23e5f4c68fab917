import { expect, type Locator, type Page } from '@playwright/test';

/** /notifications: digest, item subscriptions, saved searches and alert channels. Role locators only. */
export class NotificationsPage {
  readonly savedSearches: Locator;
  readonly channels: Locator;
  readonly addChannelForm: Locator;

  constructor(readonly page: Page) {
    this.savedSearches = page.getByRole('region', { name: 'Saved searches' });
    this.channels = page.getByRole('region', { name: 'Alert channels' });
    this.addChannelForm = page.getByRole('form', { name: 'Add a channel' });
  }

  async goto() {
    await this.page.goto('/notifications');
    await expect(this.page.getByRole('heading', { name: 'Notification Settings', level: 1 })).toBeVisible();
  }

  /** Adds a channel through the form; answers the signing secret a generic webhook shows once. */
  async addChannel(kind: 'E-mail' | 'Microsoft Teams' | 'Slack' | 'Webhook', name: string, url?: string): Promise<string | null> {
    await this.addChannelForm.getByRole('combobox', { name: 'Channel type' }).click();
    await this.page.getByRole('option', { name: kind, exact: true }).click();
    await this.addChannelForm.getByRole('textbox', { name: 'Channel name' }).fill(name);
    if (url) await this.addChannelForm.getByRole('textbox', { name: 'Webhook URL' }).fill(url);
    await this.addChannelForm.getByRole('button', { name: 'Add channel' }).click();
    await expect(this.channels.getByRole('list', { name: 'Your alert channels' }).getByText(name, { exact: true })).toBeVisible();
    if (kind !== 'Webhook') return null;
    return this.page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
  }

  /** The delivery log dialog of a channel. */
  async openDeliveryLog(channel: string): Promise<Locator> {
    await this.channels.getByRole('button', { name: `Delivery log of ${channel}` }).click();
    return this.page.getByRole('dialog', { name: `Delivery log: ${channel}` });
  }
}
