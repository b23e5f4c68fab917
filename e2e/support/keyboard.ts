import type { Locator, Page } from '@playwright/test';

/** Whether the element is the one with keyboard focus. */
export const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, as a keyboard-only user would; fails if it never does within
 * `max` presses (the element is not reachable by keyboard).
 */
export async function tabTo(page: Page, target: Locator, { max = 150, backwards = false } = {}): Promise<void> {
  for (let presses = 0; presses <= max; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target.toString()} never received focus within ${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}
