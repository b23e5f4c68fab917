import type { Locator, Page } from '@playwright/test';

/** The option of a person in a people picker's open list: its name carries the address, matched literally. */
export function personOption(page: Page, email: string): Locator {
  return page.getByRole('option', { name: new RegExp(email.replace(/[.+]/g, '\\$&')) });
}

/** Types an address into a people picker and takes the person it offers. */
export async function pickPerson(picker: Locator, email: string): Promise<void> {
  await picker.fill(email);
  await personOption(picker.page(), email).click();
}
