import fs from 'node:fs';
import path from 'node:path';
import { test as base, type Browser, type Page } from '@playwright/test';
import { E2E_ADMIN_EMAIL } from '../pages/AdminPage.js';
import { Mailbox } from './mailbox.js';
import { grantRole, signIn, type StorageState } from './sign-in.js';

export type Role = 'admin' | 'moderator' | 'user';

interface WorkerFixtures {
  /** The test mailbox (every mail the product sent, as JSON files from the global setup's SMTP server). */
  mailbox: Mailbox;
  /** Signed-in storage states, one per role and worker: each signs in once, through the real passwordless flow. */
  adminState: StorageState;
  moderatorState: StorageState;
  userState: StorageState;
}

interface TestFixtures {
  /** A page signed in as the e2e admin / a moderator / a plain user (a fresh context per test, the worker's session). */
  adminPage: Page;
  moderatorPage: Page;
  userPage: Page;
}

const productUrl = () => {
  const url = process.env.RADAR_BASE_URL;
  if (!url) throw new Error('RADAR_BASE_URL is not set: run the suites through playwright.config.ts');
  return url;
};

/** A page in a fresh context with a worker's session; the test's colour scheme applies as to `page`. */
async function withSignedInPage(browser: Browser, storageState: StorageState, colorScheme: ColorScheme | null | undefined, use: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ baseURL: productUrl(), storageState, colorScheme: colorScheme ?? undefined });
  try {
    await use(await context.newPage());
  } finally {
    await context.close();
  }
}

type ColorScheme = 'light' | 'dark' | 'no-preference';

/** The session still works (it may have been signed out by a test) and holds the role, when one is asked for. */
async function stillSignedIn(browser: Browser, state: StorageState, role?: string): Promise<boolean> {
  const context = await browser.newContext({ baseURL: productUrl(), storageState: state });
  try {
    const res = await context.request.get('/api/auth/session-user');
    if (!res.ok()) return false;
    const { user } = (await res.json()) as { user: { roles: { name: string }[] } | null };
    return Boolean(user) && (!role || Boolean(user?.roles.some((r) => r.name === role)));
  } finally {
    await context.close();
  }
}

/**
 * A worker's session, kept on disk for the run under `key`. Playwright re-creates a worker after a failed test and
 * runs its worker fixtures again: signing the same address in again each time would reach the product's sign-in
 * limit per address, and one failure would cascade into unrelated ones. So a kept session is reused while it works.
 */
async function keptSession(browser: Browser, key: string, role: string | undefined, signIn: () => Promise<StorageState>): Promise<StorageState> {
  const dir = process.env.RADAR_E2E_STATE_DIR;
  const file = dir ? path.join(dir, `${key}.json`) : null;
  return oneWorkerAtATime(dir, key, async () => {
    if (file && fs.existsSync(file)) {
      const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as StorageState;
      if (await stillSignedIn(browser, kept, role)) return kept;
    }
    const state = await signIn();
    if (file) fs.writeFileSync(file, JSON.stringify(state));
    return state;
  });
}

/**
 * Runs `work` while holding a lock named `key` in `dir` (a directory made atomically), so two workers never sign the
 * same account in at once: both would ask for a code and each could read the other's mail. The second worker waits,
 * then finds the first one's kept session.
 */
async function oneWorkerAtATime<T>(dir: string | undefined, key: string, work: () => Promise<T>): Promise<T> {
  if (!dir) return work();
  const lock = path.join(dir, `${key}.lock`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > deadline) throw new Error(`another worker has held the ${key} sign-in for two minutes (${lock})`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** A unique address per test run, so suites never collide on the same account. */
export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * Tests get the product's URL (from the global setup) as baseURL, the test mailbox, and one signed-in session per
 * worker and role: the admin is the account ADMIN_EMAILS makes Admin; the moderator and the
 * user sign up per worker, and the admin grants the moderator its role through the admin API.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(productUrl());
  },
  mailbox: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      await use(new Mailbox());
    },
    { scope: 'worker' },
  ],
  adminState: [
    async ({ browser, mailbox }, use) => {
      await use(
        await keptSession(browser, 'admin', 'Admin', () =>
          signIn(browser, productUrl(), mailbox, { firstName: 'Erin', lastName: 'Admin', email: E2E_ADMIN_EMAIL }),
        ),
      );
    },
    { scope: 'worker' },
  ],
  moderatorState: [
    async ({ browser, mailbox, adminState }, use, workerInfo) => {
      const state = await keptSession(browser, `moderator-${workerInfo.parallelIndex}`, 'Moderator', async () => {
        const email = uniqueEmail(`e2e-moderator-w${workerInfo.workerIndex}`);
        const account = { firstName: 'Mona', lastName: 'Moderator', email };
        await signIn(browser, productUrl(), mailbox, account);
        // A role change ends the holder's sessions: the moderator signs in again, with the role.
        await grantRole(browser, productUrl(), adminState, email, 'Moderator');
        return signIn(browser, productUrl(), mailbox, account);
      });
      await use(state);
    },
    { scope: 'worker' },
  ],
  userState: [
    async ({ browser, mailbox }, use, workerInfo) => {
      const state = await keptSession(browser, `user-${workerInfo.parallelIndex}`, undefined, () =>
        signIn(browser, productUrl(), mailbox, { firstName: 'Uma', lastName: 'User', email: uniqueEmail(`e2e-user-w${workerInfo.workerIndex}`) }),
      );
      await use(state);
    },
    { scope: 'worker' },
  ],
  adminPage: async ({ browser, adminState, colorScheme }, use) => {
    await withSignedInPage(browser, adminState, colorScheme, use);
  },
  moderatorPage: async ({ browser, moderatorState, colorScheme }, use) => {
    await withSignedInPage(browser, moderatorState, colorScheme, use);
  },
  userPage: async ({ browser, userState, colorScheme }, use) => {
    await withSignedInPage(browser, userState, colorScheme, use);
  },
});

export { expect } from '@playwright/test';
