import { test as base } from '@playwright/test';
import { Mailbox } from './mailbox.js';

/** Tests get the product's URL (from the global setup) as baseURL, and the test mailbox. */
export const test = base.extend<{ mailbox: Mailbox }>({
  baseURL: async ({}, use) => {
    await use(process.env.RADAR_BASE_URL);
  },
  mailbox: async ({}, use) => {
    await use(new Mailbox());
  },
});

export { expect } from '@playwright/test';

/** A unique address per test run, so suites never collide on the same account. */
export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
