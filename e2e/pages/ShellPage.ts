import type { Locator, Page } from '@playwright/test';

/** What is on every page: header (logo, navigation, theme, account menu), footer and the toast region. */
export class ShellPage {
  readonly logo: Locator;
  readonly mainNav: Locator;
  readonly themeButton: Locator;
  readonly accountButton: Locator;
  readonly accountMenu: Locator;
  readonly toasts: Locator;
  readonly footerAccount: Locator;

  constructor(readonly page: Page) {
    this.logo = page.getByRole('link', { name: 'M365 Radar home' });
    this.mainNav = page.getByRole('navigation', { name: 'Main' });
    this.themeButton = page.getByRole('button', { name: 'Toggle theme' });
    this.accountButton = page.getByRole('button', { name: 'Account menu' });
    this.accountMenu = page.getByRole('menu');
    this.toasts = page.getByRole('region', { name: 'Notifications (F8)' });
    this.footerAccount = page.getByRole('navigation', { name: 'Account' });
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(path);
  }

  toast(text: string | RegExp, options: { exact?: boolean } = {}): Locator {
    return this.toasts.getByText(text, options);
  }

  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { name, level: 1 });
  }

  async openAccountMenu(): Promise<Locator> {
    await this.accountButton.click();
    return this.accountMenu;
  }

  async signOut(): Promise<void> {
    await this.openAccountMenu();
    await this.accountMenu.getByRole('menuitem', { name: 'Sign out' }).click();
  }

  async chooseTheme(label: 'Light' | 'Dark' | 'System'): Promise<void> {
    await this.themeButton.click();
    await this.page.getByRole('menuitemradio', { name: label }).click();
  }

  /** Footer Account column: 'Sign Up' or 'Sign In' opens the auth dialog in that mode. */
  async openAuthDialogFromFooter(name: 'Sign Up' | 'Sign In'): Promise<void> {
    await this.footerAccount.getByRole('button', { name }).click();
  }

  navLink(name: string): Locator {
    return this.mainNav.getByRole('link', { name });
  }
}
