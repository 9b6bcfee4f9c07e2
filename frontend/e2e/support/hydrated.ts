import { expect, type Page } from '@playwright/test';

/** Waits until React has taken over a prerendered page: a tap or key press before that is lost. */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
}
