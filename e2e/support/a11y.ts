import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Impacts the suite refuses: zero serious or critical violations. */
const BLOCKING = new Set(['serious', 'critical']);

/** Waits until no CSS transition or animation runs (MUI dialogs and menus fade in), so colours are final. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/**
 * Runs axe on the page as it is now (after its transitions) and fails with a readable list of every serious or
 * critical violation: rule, impact, help text and the first offending elements.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await settle(page);
  // Legacy mode runs axe in the page itself: the default (runPartial per frame, then finishRun) opens a blank page
  // for every scan, about a second each on two cores; our pages have no cross-origin frames for it to reach. Only
  // violations are asserted, so only violations are collected in full (axe still runs every rule; passes and
  // inapplicable results keep one node each): about a third of a scan's time on a long page.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
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
