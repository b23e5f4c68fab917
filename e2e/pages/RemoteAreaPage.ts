import type { Locator, Page } from '@playwright/test';

/** A page area filled by a remote app, and the contained error the shell shows when the remote cannot load. */
export class RemoteAreaPage {
  readonly retryButton: Locator;

  constructor(readonly page: Page) {
    this.retryButton = page.getByRole('button', { name: 'Retry' });
  }

  unavailable(label: 'Dashboard' | 'Weekly Digest' | 'Admin'): Locator {
    return this.page.getByRole('alert').filter({ hasText: `${label} is unavailable` });
  }

  /** Makes every request for a remote's files fail, as if its server were down. Returns the undo. */
  async blockRemote(name: 'dashboard' | 'admin' | 'digest'): Promise<() => Promise<void>> {
    const pattern = `**/remotes/${name}/**`;
    await this.page.route(pattern, (route) => route.abort('connectionrefused'));
    return () => this.page.unroute(pattern);
  }
}
