import { expect, type Page } from '@playwright/test';
import axe from 'axe-core';

/** Impacts the suite refuses: zero serious or critical violations. */
const BLOCKING = new Set(['serious', 'critical']);

/** Waits until no CSS transition or animation runs (MUI dialogs and menus fade in), so colours are final. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/** axe in every frame of the page that does not have it yet (after a navigation, the new document). */
async function injectAxe(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    if (await frame.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')) continue;
    await frame.evaluate(axe.source);
    // As @axe-core/playwright configures it in its legacy mode: frames of the page's own origin only.
    await frame.evaluate(() =>
      (window as unknown as { axe: typeof axe }).axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } }),
    );
  }
}

/**
 * Runs axe on the page as it is now (after its transitions) and fails with a readable list of every serious or
 * critical violation: rule, impact, help text and the first offending elements.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await settle(page);
  // axe runs in the page itself, as @axe-core/playwright's legacy mode runs it: its default (runPartial per frame,
  // then finishRun) opens a blank page for every scan, about a second each on two cores; our pages have no
  // cross-origin frames for it to reach. Unlike that builder, axe's source (about 0.6 MB) is evaluated once per
  // document rather than twice per scan: pages scanned again (every admin tab, each dialog) keep it. Only violations
  // are asserted, so only violations are collected in full (axe still runs every rule; passes and inapplicable
  // results keep one node each): about a third of a scan's time on a long page.
  await injectAxe(page);
  const results = await page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), {
    resultTypes: ['violations'],
  } satisfies axe.RunOptions);
  const blocking = results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} -> ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`)
          .join(' | ')}`,
    );
  // Soft: one run reports every page's violations, not only the first page's.
  expect.soft(blocking, `serious or critical accessibility violations on ${what}`).toEqual([]);
}
