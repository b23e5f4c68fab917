import type { Locator, Page } from '@playwright/test';

/** The passwordless sign-in / sign-up dialog. */
export class AuthDialogPage {
  readonly dialog: Locator;
  readonly sendCodeButton: Locator;
  readonly codeInput: Locator;
  readonly signInButton: Locator;
  readonly passkeyButton: Locator;
  /** What the dialog says when a passkey attempt failed. */
  readonly passkeyError: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog');
    this.sendCodeButton = this.dialog.getByRole('button', { name: 'Send Code' });
    this.codeInput = this.dialog.getByLabel('Verification code');
    this.signInButton = this.dialog.getByRole('button', { name: 'Sign In' });
    this.passkeyButton = this.dialog.getByRole('button', { name: 'Sign in with a passkey' });
    this.passkeyError = this.dialog.getByText(/passkey could not be used/);
  }

  title(name: 'Create Account' | 'Sign In' | 'Enter Verification Code'): Locator {
    return this.dialog.getByRole('heading', { name });
  }

  async requestSignUpCode(user: { firstName: string; lastName: string; email: string }): Promise<void> {
    await this.dialog.getByLabel('First name').fill(user.firstName);
    await this.dialog.getByLabel('Last name').fill(user.lastName);
    await this.dialog.getByLabel('Email').fill(user.email);
    await this.sendCodeButton.click();
  }

  async requestSignInCode(email: string): Promise<void> {
    await this.dialog.getByLabel('Email').fill(email);
    await this.sendCodeButton.click();
  }

  async submitCode(code: string): Promise<void> {
    await this.codeInput.fill(code);
    await this.signInButton.click();
  }
}
