import { expect, type Locator, type Page } from '@playwright/test';

export interface DigestSignup {
  firstName: string;
  lastName: string;
  email: string;
}

/** The weekly digest page (/weekly-digest) and its signup dialog. Role locators only. */
export class WeeklyDigestPage {
  readonly heading: Locator;
  readonly signUpButton: Locator;
  readonly dialog: Locator;
  readonly firstName: Locator;
  readonly lastName: Locator;
  readonly email: Locator;
  readonly submitButton: Locator;
  readonly successView: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Weekly Digest', level: 1 });
    this.signUpButton = page.getByRole('button', { name: 'Sign Up for Weekly Digest' });
    this.dialog = page.getByRole('dialog', { name: 'Sign Up for Weekly Digest' });
    this.firstName = this.dialog.getByRole('textbox', { name: 'First Name' });
    this.lastName = this.dialog.getByRole('textbox', { name: 'Last Name' });
    this.email = this.dialog.getByRole('textbox', { name: 'Email' });
    this.submitButton = this.dialog.getByRole('button', { name: 'Sign Up', exact: true });
    this.successView = this.dialog.getByRole('status');
  }

  /** Opens the page and waits until the digest (or its empty text) has loaded. */
  async goto(): Promise<void> {
    await this.page.goto('/weekly-digest');
    await expect(this.heading).toBeVisible();
    await expect(this.page.getByText(/^Next digest: /)).toBeVisible();
  }

  stat(label: 'New Items' | 'Updated Items' | 'Featured Items' | 'Total Activity'): Locator {
    return this.page.getByRole('group', { name: label });
  }

  async openSignup(): Promise<void> {
    await this.signUpButton.click();
    await expect(this.dialog).toBeVisible();
  }

  async fillSignup(user: DigestSignup): Promise<void> {
    await this.firstName.fill(user.firstName);
    await this.lastName.fill(user.lastName);
    await this.email.fill(user.email);
  }
}
